package dev.vigil.diagnose.detect;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * One soft-failure detector (docs/DETECTORS.md): reads the window's events, oldest first, through a
 * {@link Scan}.
 *
 * <p>Vigil's detectors stream, in state bounded per tool, turn and session. A detector of your own
 * that needs the whole window at once extends {@link WholeWindowDetector}; it then holds the
 * window's events while the pass runs.
 */
public interface Detector {
  /** The name used by {@code --detectors} and in {@code report.json}. */
  String name();

  /**
   * Starts reading one window.
   *
   * @param derived where the derived events go, as they are found
   */
  Scan scan(Consumer<Derived> derived);

  /**
   * Examines a whole window at once; the detection lists its derived events. Tests and small
   * windows use it.
   */
  default Detection detect(List<WindowEvent> window) {
    List<Derived> derived = new ArrayList<>();
    Scan scan = scan(derived::add);
    window.forEach(scan::accept);
    return scan.finish().withDerived(derived);
  }
}
