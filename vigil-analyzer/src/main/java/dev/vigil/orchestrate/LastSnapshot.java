package dev.vigil.orchestrate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.diagnose.Diagnosis;
import dev.vigil.diagnose.PromptRuleCatalogue;
import dev.vigil.diagnose.ThornCause;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.emobank.EmoBank;
import dev.vigil.emobank.Snapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The EmoBank's last state ({@code state.json}), read without opening the bank, for the fallback of
 * self-repair (docs/STAGES.md#self-repair): the snapshot and the top thorns of the last pass that
 * got that far. Reading it never writes.
 *
 * @param snapshot the last snapshot, or the empty one
 * @param topThorns the last pass's top thorns, possibly none
 * @param source where it came from, in words, for the report
 */
record LastSnapshot(Snapshot snapshot, List<ThornCause> topThorns, String source) {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** Copies the list. */
  public LastSnapshot {
    topThorns = List.copyOf(topThorns);
  }

  /**
   * Reads {@code emobank/state.json}; a missing or unreadable file gives the empty snapshot, saying
   * so.
   */
  public static LastSnapshot read(Path emobank) {
    Path file = emobank.resolve(EmoBank.STATE);
    if (!Files.isRegularFile(file)) {
      return new LastSnapshot(
          Snapshot.empty(), List.of(), file + " does not exist: the empty snapshot");
    }
    try {
      JsonNode state = MAPPER.readTree(file.toFile());
      List<ThornCause> top = new ArrayList<>();
      for (JsonNode t : state.path("top_thorns")) {
        top.add(
            new ThornCause(
                t.path("cause").asText(),
                t.path("intensity").asDouble(),
                t.path("thorns").asInt()));
      }
      return new LastSnapshot(
          Snapshot.fromJson(state),
          top,
          file + (state.has("now") ? " of the pass at " + state.get("now").asText() : ""));
    } catch (IOException | RuntimeException e) {
      return new LastSnapshot(
          Snapshot.empty(),
          List.of(),
          file + " is not readable (" + e.getMessage() + "): the empty snapshot");
    }
  }

  /**
   * The provisional diagnosis: the last top thorns and the rules they and this pass's detections
   * call for.
   */
  public Diagnosis provisionalDiagnosis(List<Detection> detections) {
    return new Diagnosis(
        List.of(),
        List.of(),
        List.of(),
        topThorns,
        PromptRuleCatalogue.rulesFor(topThorns, detections),
        0,
        true);
  }
}
