package dev.vigil.diagnose.detect;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * What a conversation detector found, as it builds up (SPEC section 4.4b): each instance is cited in the evidence by
 * its session, turn, the refs of the events it rests on and the words that matched, and becomes one derived event
 * about the event it is anchored on.
 */
final class DialogueFindings {
  private final String name;
  private final ObjectNode evidence = JsonNodeFactory.instance.objectNode();
  private final ArrayNode instances = evidence.putArray("instances");
  private final List<Derived> derived = new ArrayList<>();

  DialogueFindings(String name) {
    this.name = name;
  }

  /**
   * Records one instance.
   *
   * @param turn    the turn it is in
   * @param anchor  the event the derived event is about (its time, agent, session and identity)
   * @param cited   the events it rests on, cited by ref
   * @param kind    the derived event's kind
   * @param status  the derived event's status
   * @param details what was measured and matched; copied into the instance and the derived event's payload
   */
  void add(Conversation.Turn turn, WindowEvent anchor, List<WindowEvent> cited, String kind, String status,
      ObjectNode details) {
    ObjectNode i = instances.addObject().put("session", turn.session()).put("turn", turn.id());
    ArrayNode refs = i.putArray("refs");
    cited.forEach(w -> refs.add(w.ref()));
    i.setAll(details.deepCopy());
    ObjectNode payload = details.deepCopy().put("session", turn.session()).put("turn", turn.id());
    derived.add(new Derived(EventFields.derive(anchor.event(), kind, status, anchor.event().ts(), payload),
        anchor.identity()));
  }

  /** How many instances so far. */
  int count() {
    return derived.size();
  }

  /** The detection, with a summary sentence when anything was found. */
  Detection detection(String summary) {
    return new Detection(name, derived.size(), evidence, derived.isEmpty() ? "" : summary, List.copyOf(derived));
  }
}
