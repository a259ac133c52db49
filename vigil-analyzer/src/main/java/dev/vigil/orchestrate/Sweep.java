package dev.vigil.orchestrate;

import dev.vigil.appraise.Appraiser;
import dev.vigil.diagnose.detect.Derived;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.diagnose.detect.DetectorScans;
import dev.vigil.diagnose.detect.Detectors;
import dev.vigil.diagnose.detect.WindowEvent;
import dev.vigil.learn.SessionRisk;
import dev.vigil.learn.SessionScorer;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * One reading of the window, oldest event first (docs/DETECTORS.md and docs/DESIGN.md#the-alarm):
 * each event goes to every detector and to {@code each} (the deposits), and the failed calls are
 * counted for the alarm. Nothing of the window is held here.
 *
 * @param detections what each detector found
 * @param events events read
 * @param failedCalls of those, tool calls that failed (status {@code fail}, {@code timeout} or
 *     {@code error})
 * @param outOfOrder events that came too late in the input to be read in time order
 * @param risks with a model: each session's score, the highest first; otherwise empty
 */
public record Sweep(
    List<Detection> detections,
    long events,
    long failedCalls,
    long outOfOrder,
    List<SessionRisk> risks) {
  private static final Set<String> FAILED = Set.of("fail", "timeout", "error");

  /** Copies the list. */
  public Sweep {
    detections = List.copyOf(detections);
    risks = List.copyOf(risks);
  }

  /** The scorer of the rules' model, or null when they have none. */
  static SessionScorer scorer(Rules rules) {
    return rules.model() == null
        ? null
        : new SessionScorer(rules.model(), rules.detectors().roles());
  }

  /** Nothing read. */
  public static Sweep none() {
    return new Sweep(List.of(), 0, 0, 0, List.of());
  }

  /**
   * Reads the window once.
   *
   * @param derived where the detectors' derived events go, with the detector's name, as they are
   *     found
   * @param each receives each event after the detectors
   */
  public static Sweep of(
      Window window,
      Detectors detectors,
      BiConsumer<String, Derived> derived,
      Consumer<WindowEvent> each) {
    return of(window, detectors, derived, each, null);
  }

  /**
   * Reads the window once and, with a scorer, scores each of its sessions ({@code risks}, highest
   * first; empty without one).
   */
  public static Sweep of(
      Window window,
      Detectors detectors,
      BiConsumer<String, Derived> derived,
      Consumer<WindowEvent> each,
      SessionScorer scorer) {
    DetectorScans scans =
        scorer == null
            ? detectors.start(derived)
            : detectors.start(
                (name, d) -> {
                  scorer.derived(name, d);
                  derived.accept(name, d);
                },
                scorer.listener());
    long[] counts = new long[2];
    window
        .events()
        .forEach(
            w -> {
              counts[0]++;
              if (!Appraiser.isContext(w.event()) && FAILED.contains(w.event().status())) {
                counts[1]++;
              }
              scans.accept(w);
              if (scorer != null) {
                scorer.accept(w);
              }
              each.accept(w);
            });
    List<Detection> detections = scans.finish();
    return new Sweep(
        detections,
        counts[0],
        counts[1],
        window.events().outOfOrder(),
        scorer == null ? List.of() : scorer.finish());
  }
}
