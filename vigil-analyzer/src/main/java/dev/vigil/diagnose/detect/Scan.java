package dev.vigil.diagnose.detect;

/**
 * One detector's reading of one window (docs/DETECTORS.md): the pass hands it the window's events
 * one at a time, oldest first, and never holds the window itself, so a detector keeps only bounded
 * state (per tool, turn and session, the newest {@link Findings#MAX_CITED} cited events) and memory
 * does not grow with the number of events. Derived events go to the sink the scan was started with
 * as they are found. Confined to the thread of the pass.
 */
public interface Scan {
  /** Reads the next event of the window; never modifies it. */
  void accept(WindowEvent event);

  /**
   * What the detector found over the whole window; derived events it finds only now go to the sink
   * first. The detection counts every derived event, and lists none of them ({@link
   * Detection#derived()} is empty).
   */
  Detection finish();
}
