package dev.vigil.diagnose.detect;

import java.util.List;

/** One soft-failure detector (SPEC section 4.4): reads the window's events, oldest first, and reports. */
public interface Detector {
  /** The name used by {@code --detectors} and in {@code report.json}. */
  String name();

  /** Examines the window; never modifies the events. */
  Detection detect(List<WindowEvent> window);
}
