package dev.vigil.orchestrate;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.diagnose.ThornCause;
import dev.vigil.emobank.Snapshot;
import java.time.Instant;
import java.util.List;

/**
 * The content of the bank's {@code state.json} (docs/DESIGN.md#the-emobank): the last snapshot, the
 * pass's now and the top thorns, which {@link LastSnapshot} reads back for a later pass's
 * provisional diagnosis.
 */
final class BankState {
  private BankState() {}

  /**
   * @param topThorns the diagnosis's top thorns, or null before the diagnosis
   */
  static ObjectNode of(Snapshot snapshot, Instant now, List<ThornCause> topThorns) {
    ObjectNode state = snapshot.toJson();
    state.put("now", now.toString());
    if (topThorns != null) {
      ArrayNode top = state.putArray("top_thorns");
      for (ThornCause t : topThorns) {
        top.addObject()
            .put("cause", t.cause())
            .put("intensity", t.intensity())
            .put("thorns", t.thorns());
      }
    }
    return state;
  }
}
