package dev.vigil.diagnose.detect;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.appraise.ToolRoles;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code unconfirmed_write} (SPEC section 4.4b): a write call that succeeded in a turn whose user message gives no
 * explicit confirmation ({@code affirmatives}: "yes", "confirm", "go ahead"…) although the agent's previous answer in
 * the session asked for one or proposed the action (a question mark or one of {@code asks}), or with no earlier
 * answer in the session at all ({@code when_no_earlier_answer}). Only turns whose user message the window holds are
 * judged: without the dialogue there is nothing to read.
 *
 * <p>Derived event: {@code <call kind>.unconfirmed}, status {@code unconfirmed} (appraised as anxiety: a risk taken,
 * not yet a failure), payload {@code tool}, {@code asked} (what the previous answer said, or
 * {@code "no earlier answer"}).
 */
final class UnconfirmedWrite extends DialogueDetector {
  /** The detector's name. */
  static final String NAME = "unconfirmed_write";
  /** The derived event's status. */
  static final String STATUS = "unconfirmed";

  UnconfirmedWrite(DetectorSettings settings) {
    super(NAME, settings);
  }

  @Override
  void session(Conversation.Session s, DialogueFindings found) {
    Conversation.Turn previous = null;
    for (Conversation.Turn t : s.turns()) {
      if (t.user() != null) {
        judge(t, previous, found);
      }
      if (t.answer() != null) {
        previous = t;
      }
    }
  }

  @Override
  String summary(int count) {
    return count + " write call(s) made without the user's explicit confirmation";
  }

  private void judge(Conversation.Turn t, Conversation.Turn previous, DialogueFindings found) {
    String confirmed = Phrases.first(Phrases.words(t.userText()), words.affirmatives());
    if (confirmed != null) {
      return;
    }
    String asked;
    if (previous == null) {
      if (!words.whenNoEarlierAnswer()) {
        return;
      }
      asked = "no earlier answer";
    } else {
      String answer = previous.answerText();
      asked = answer.contains("?") ? "?" : Phrases.first(Phrases.words(answer), words.asks());
      if (asked == null) {
        return;
      }
    }
    for (WindowEvent call : t.calls()) {
      if (roles.of(call.event()) == ToolRoles.Role.WRITE
          && EventFields.SUCCESS.contains(EventFields.status(call.event()))) {
        ObjectNode details = JsonNodeFactory.instance.objectNode()
            .put("tool", ToolRoles.toolName(call.event())).put("asked", asked);
        List<WindowEvent> cited = new ArrayList<>();
        if (previous != null) {
          cited.add(previous.answer());
        }
        cited.add(t.user());
        cited.add(call);
        found.add(t, call, cited, call.event().kind() + ".unconfirmed", STATUS, details);
      }
    }
  }
}
