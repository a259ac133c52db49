package dev.vigil.diagnose.detect;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;

/**
 * One pass's reading of its window by every selected detector (SPEC section 4.4): each event is handed to each
 * detector's {@link Scan} in turn, oldest first, and the window is never held here.
 */
public final class DetectorScans {
  private final List<Scan> scans = new ArrayList<>();

  DetectorScans(List<Detector> detectors, BiConsumer<String, Derived> derived) {
    for (Detector d : detectors) {
      String name = d.name();
      scans.add(d.scan(x -> derived.accept(name, x)));
    }
  }

  /** Hands the next event of the window to every detector. */
  public void accept(WindowEvent event) {
    for (Scan s : scans) {
      s.accept(event);
    }
  }

  /** Every detector's detection, in the detectors' order. */
  public List<Detection> finish() {
    List<Detection> out = new ArrayList<>(scans.size());
    for (Scan s : scans) {
      out.add(s.finish());
    }
    return out;
  }
}
