package dev.vigil.orchestrate;

import dev.vigil.appraise.Appraiser;
import dev.vigil.diagnose.detect.Derived;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.diagnose.detect.DetectorScans;
import dev.vigil.diagnose.detect.Detectors;
import dev.vigil.diagnose.detect.WindowEvent;
import java.util.List;
import java.util.Set;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * One reading of the window, oldest event first (SPEC sections 4.4 and 4.5b): each event goes to every detector and
 * to {@code each} (the deposits), and the failed calls are counted for the alarm. Nothing of the window is held here.
 *
 * @param detections  what each detector found
 * @param events      events read
 * @param failedCalls of those, tool calls that failed (status {@code fail}, {@code timeout} or {@code error})
 * @param outOfOrder  events that came too late in the input to be read in time order
 */
public record Sweep(List<Detection> detections, long events, long failedCalls, long outOfOrder) {
  private static final Set<String> FAILED = Set.of("fail", "timeout", "error");

  /** Copies the list. */
  public Sweep {
    detections = List.copyOf(detections);
  }

  /** Nothing read. */
  public static Sweep none() {
    return new Sweep(List.of(), 0, 0, 0);
  }

  /**
   * Reads the window once.
   *
   * @param derived where the detectors' derived events go, with the detector's name, as they are found
   * @param each    receives each event after the detectors
   */
  public static Sweep of(Window window, Detectors detectors, BiConsumer<String, Derived> derived,
      Consumer<WindowEvent> each) {
    DetectorScans scans = detectors.start(derived);
    long[] counts = new long[2];
    window.events().forEach(w -> {
      counts[0]++;
      if (!Appraiser.isContext(w.event()) && FAILED.contains(w.event().status())) {
        counts[1]++;
      }
      scans.accept(w);
      each.accept(w);
    });
    return new Sweep(scans.finish(), counts[0], counts[1], window.events().outOfOrder());
  }
}
