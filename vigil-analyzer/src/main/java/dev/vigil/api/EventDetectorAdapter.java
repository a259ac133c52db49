package dev.vigil.api;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.vigil.diagnose.detect.Derived;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.diagnose.detect.Detector;
import dev.vigil.diagnose.detect.Findings;
import dev.vigil.diagnose.detect.Scan;
import dev.vigil.diagnose.detect.WindowEvent;
import dev.vigil.observe.Event;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Runs an {@link EventDetector} as one of the pass's detectors: each derived event is counted,
 * cited and handed on.
 */
final class EventDetectorAdapter implements Detector {
  private final EventDetector detector;

  EventDetectorAdapter(EventDetector detector) {
    this.detector = detector;
  }

  @Override
  public String name() {
    return detector.name();
  }

  @Override
  public Scan scan(Consumer<Derived> derived) {
    Findings found = new Findings(detector.name(), derived);
    return new Scan() {
      @Override
      public void accept(WindowEvent w) {
        Optional<Event> finding = detector.derive(w.event());
        if (finding != null && finding.isPresent()) {
          found.derive(w, finding.get());
        }
      }

      @Override
      public Detection finish() {
        return found.detection(
            JsonNodeFactory.instance.objectNode(), detector.summary(found.count()));
      }
    };
  }
}
