package dev.vigil.diagnose.detect;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.appraise.ToolRoles;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code claim_without_action} (SPEC section 4.4b): the answer states an action as done (a past form of {@code claims}:
 * "cancelled", "has been booked", "I've updated") while no write call of a verb that backs it succeeded in the turn
 * (none was made, or those made failed): premature success (section 4.4) read from the dialogue.
 *
 * <p>A form is no claim when one of {@code negations} stands before it in its clause ("not cancelled", "will be
 * booked", "once the parcel is returned"), when its sentence is a question, or when a tool result of the session's turns so
 * far holds the word (the answer reports a state it looked up: "the order's status is cancelled").
 *
 * <p>Derived event: {@code turn.claim_without_action}, status {@code fail}, about the answer, payload {@code claims}
 * (the forms) and {@code failed_calls} (the write calls of those verbs that failed).
 */
final class ClaimWithoutAction extends DialogueDetector {
  /** The detector's name. */
  static final String NAME = "claim_without_action";
  /** The derived event's kind. */
  static final String KIND = "turn.claim_without_action";

  ClaimWithoutAction(DetectorSettings settings) {
    super(NAME, settings);
  }

  @Override
  void session(Conversation.Session s, DialogueFindings found) {
    StringBuilder lookedUp = new StringBuilder();
    for (Conversation.Turn t : s.turns()) {
      t.calls().forEach(c -> lookedUp.append(' ').append(c.event().payload().path("result").toString()));
      if (t.answer() != null) {
        judge(t, Set.copyOf(Phrases.words(lookedUp.toString())), found);
      }
    }
  }

  @Override
  String summary(int count) {
    return count + " answer(s) state an action as done that no successful call backs";
  }

  private void judge(Conversation.Turn t, Set<String> lookedUp, DialogueFindings found) {
    Set<String> unbacked = new LinkedHashSet<>();
    List<WindowEvent> failed = new ArrayList<>();
    for (String sentence : t.answerText().split("(?<=[.!?\\n])")) {
      if (sentence.strip().endsWith("?")) {
        continue;
      }
      for (String clause : sentence.split("[,;:]")) {
        List<String> w = Phrases.words(clause);
        for (int i = 0; i < w.size(); i++) {
          List<String> verbs = words.claims().get(w.get(i));
          if (verbs == null || negated(w, i) || lookedUp.contains(w.get(i))) {
            continue;
          }
          if (!backed(t, verbs, failed)) {
            unbacked.add(w.get(i));
          }
        }
      }
    }
    if (unbacked.isEmpty()) {
      return;
    }
    ObjectNode details = JsonNodeFactory.instance.objectNode();
    ArrayNode claims = details.putArray("claims");
    unbacked.forEach(claims::add);
    ArrayNode failedTools = details.putArray("failed_calls");
    failed.forEach(f -> failedTools.add(ToolRoles.toolName(f.event())));
    List<WindowEvent> cited = new ArrayList<>(failed);
    cited.add(t.answer());
    found.add(t, t.answer(), cited, KIND, "fail", details);
  }

  /** Whether a negation, modal or condition stands before the form in its clause. */
  private boolean negated(List<String> w, int at) {
    for (int j = 0; j < at; j++) {
      for (String n : words.negations()) {
        if (Phrases.matches(w.get(j), n)) {
          return true;
        }
      }
    }
    return false;
  }

  /** Whether a write of one of {@code verbs} succeeded in the turn; collects those that failed. */
  private boolean backed(Conversation.Turn t, List<String> verbs, List<WindowEvent> failed) {
    boolean ok = false;
    for (WindowEvent c : t.calls()) {
      String verb = ToolRoles.verb(ToolRoles.toolName(c.event())).toLowerCase(Locale.ROOT);
      if (roles.of(c.event()) != ToolRoles.Role.WRITE || !verbs.contains(verb)) {
        continue;
      }
      if (EventFields.SUCCESS.contains(EventFields.status(c.event()))) {
        ok = true;
      } else if (!failed.contains(c)) {
        failed.add(c);
      }
    }
    return ok;
  }
}
