package dev.vigil.diagnose.detect;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.dialogue.Conversation;
import java.util.List;
import java.util.function.Consumer;

/**
 * What a conversation detector found, as it builds up (docs/DETECTORS.md#conversation-detectors):
 * each instance is cited in the evidence by its session, turn, the refs of the events it rests on
 * and the words that matched, and becomes one derived event about the event it is anchored on, sent
 * to the sink at once. The evidence keeps the newest {@value Findings#MAX_CITED} instances, with
 * {@code instances_total}, and says how many sessions the dialogue closed early ({@code
 * sessions_closed_early}) when it had to.
 */
final class DialogueFindings {
  private final Findings found;

  DialogueFindings(String name, Consumer<Derived> out) {
    this.found = new Findings(name, out);
  }

  /**
   * Records one instance.
   *
   * @param turn the turn it is in
   * @param anchor the event the derived event is about (its time, agent, session and identity); the
   *     last of {@code cited} when it is among them
   * @param cited the events it rests on, oldest first, cited by ref
   * @param kind the derived event's kind
   * @param status the derived event's status
   * @param details what was measured and matched; copied into the instance and the derived event's
   *     payload
   */
  void add(
      Conversation.Turn<WindowEvent> turn,
      WindowEvent anchor,
      List<WindowEvent> cited,
      String kind,
      String status,
      ObjectNode details) {
    ObjectNode i = found.entry("instances").put("session", turn.session()).put("turn", turn.id());
    ArrayNode refs = i.putArray("refs");
    cited.forEach(w -> refs.add(w.ref()));
    i.setAll(details.deepCopy());
    cited.forEach(found::cite);
    ObjectNode payload = details.put("session", turn.session()).put("turn", turn.id());
    found.derive(
        anchor, EventFields.derive(anchor.event(), kind, status, anchor.event().ts(), payload));
  }

  /** How many instances so far. */
  int count() {
    return found.count();
  }

  /**
   * The detection, with a summary sentence when anything was found.
   *
   * @param closedEarly how many sessions the dialogue closed early to keep its bound (in the
   *     evidence when any)
   */
  Detection detection(String summary, long closedEarly) {
    ObjectNode evidence = JsonNodeFactory.instance.objectNode();
    evidence.putArray("instances");
    evidence.put("instances_total", 0);
    if (closedEarly > 0) {
      evidence.put("sessions_closed_early", closedEarly);
    }
    return found.detection(evidence, summary);
  }
}
