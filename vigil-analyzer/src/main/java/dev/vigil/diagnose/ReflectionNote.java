package dev.vigil.diagnose;

import dev.vigil.diagnose.detect.Detection;
import dev.vigil.emobank.Snapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The reflection's note for the prompt's adaptive section (docs/ADAPTATION.md#prompt-adaptation):
 * the affective state in one sentence, the thorn that weighs most, and what each detector that
 * fired measured.
 */
public final class ReflectionNote {
  private ReflectionNote() {}

  /** The note's lines. */
  public static String of(Snapshot snapshot, Diagnosis diagnosis, List<Detection> detections) {
    List<String> lines = new ArrayList<>();
    StringBuilder first =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "Mood %s (stress %.2f); %d thorns, %d roses",
                snapshot.mood(),
                snapshot.stress(),
                diagnosis.thorns().size(),
                diagnosis.roses().size()));
    if (!diagnosis.topThorns().isEmpty()) {
      first.append("; most weight on ").append(diagnosis.topThorns().get(0).cause());
    }
    lines.add(first.append('.').toString());
    for (Detection d : detections) {
      if (d.fired()) {
        lines.add(d.name() + ": " + d.summary() + ".");
      }
    }
    return String.join("\n", lines);
  }
}
