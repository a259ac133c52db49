package dev.vigil.diagnose.detect;

import dev.vigil.dialogue.Conversation;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * One pass's reading of its window by every selected detector (docs/DETECTORS.md): each event is
 * handed to each detector's {@link Scan} in turn, oldest first, and the window is never held here.
 * The conversation detectors share one reading of the dialogue ({@link Conversation}), fed here
 * once per event, with any other reader of it (a model's features).
 */
public final class DetectorScans {
  private final List<Scan> scans = new ArrayList<>();
  private Conversation<WindowEvent> dialogue;

  /**
   * @param derived where the derived events go, with the name of the detector that found them
   */
  DetectorScans(List<Detector> detectors, BiConsumer<String, Derived> derived) {
    this(detectors, derived, null);
  }

  /**
   * @param derived where the derived events go, with the name of the detector that found them
   * @param reader another reader of the same dialogue (a model's features), or null
   */
  DetectorScans(
      List<Detector> detectors,
      BiConsumer<String, Derived> derived,
      Conversation.Listener<WindowEvent> reader) {
    this(
        detectors,
        i -> {
          String name = detectors.get(i).name();
          return x -> derived.accept(name, x);
        });
    if (reader != null) {
      if (dialogue == null) {
        dialogue = new Conversation<WindowEvent>();
      }
      dialogue.subscribe(reader);
    }
  }

  /**
   * @param derived where the derived events of the detector at each index go
   */
  DetectorScans(List<Detector> detectors, IntFunction<Consumer<Derived>> derived) {
    for (int i = 0; i < detectors.size(); i++) {
      Detector d = detectors.get(i);
      if (d instanceof DialogueDetector talk) {
        if (dialogue == null) {
          dialogue = new Conversation<WindowEvent>();
        }
        scans.add(talk.scanIn(dialogue, derived.apply(i)));
      } else {
        scans.add(d.scan(derived.apply(i)));
      }
    }
  }

  /** Hands the next event of the window to every detector. */
  public void accept(WindowEvent event) {
    if (dialogue != null) {
      dialogue.accept(event);
    }
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
    if (dialogue != null) {
      dialogue
          .finish(); // done already when a conversation detector finished it; for another reader
      // alone, now
    }
    return out;
  }
}
