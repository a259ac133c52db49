package dev.vigil.diagnose.detect;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.dialogue.Conversation;
import dev.vigil.dialogue.Phrases;
import dev.vigil.dialogue.ToolRoles;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code unconfirmed_write} (docs/DETECTORS.md#conversation-detectors): a write call that succeeded
 * in a turn whose user message gives no explicit confirmation ({@code affirmatives}: "yes",
 * "confirm", "go ahead"…) although the agent's previous answer in the session asked for one or
 * proposed the action (a question mark or one of {@code asks}), or with no earlier answer in the
 * session at all ({@code when_no_earlier_answer}). Only turns whose user message the window holds
 * are judged: without the dialogue there is nothing to read.
 *
 * <p>Read as a stream: a write is judged as it is read when its turn's user message came before it,
 * else when its turn completes; a session's state is the answer of its last answered turn.
 *
 * <p>Derived event: {@code <call kind>.unconfirmed}, status {@code unconfirmed} (appraised as
 * anxiety: a risk taken, not yet a failure), payload {@code tool}, {@code asked} (what the previous
 * answer said, or {@code "no earlier answer"}).
 */
final class UnconfirmedWrite extends DialogueDetector {
  /** The detector's name. */
  static final String NAME = "unconfirmed_write";

  /** The derived event's status. */
  static final String STATUS = "unconfirmed";

  /** How many successful writes of one turn are kept while its user message has not been read. */
  static final int MAX_PENDING = Findings.MAX_CITED;

  private final Phrases.Compiled affirmatives;
  private final Phrases.Compiled asks;

  UnconfirmedWrite(DetectorSettings settings) {
    super(NAME, settings);
    this.affirmatives = Phrases.compile(words.affirmatives());
    this.asks = Phrases.compile(words.asks());
  }

  @Override
  Conversation.Reader<WindowEvent> reader(DialogueFindings found) {
    return new Session(found);
  }

  @Override
  String summary(int count) {
    return count + " write call(s) made without the user's explicit confirmation";
  }

  /**
   * One session: the answer of the last turn that had one, and the successful writes of an open
   * turn read before its user message (judged when the turn completes; at most {@value
   * #MAX_PENDING} per turn, the newest).
   */
  private final class Session implements Conversation.Reader<WindowEvent> {
    private final DialogueFindings found;
    private final Map<Conversation.Turn<WindowEvent>, Newest<WindowEvent>> pending =
        new HashMap<>(4);

    /** The answer of the session's last turn that had one. */
    private WindowEvent previous;

    /** The last turn whose user message was read, and whether it confirmed. */
    private Conversation.Turn<WindowEvent> read;

    private boolean confirmed;

    Session(DialogueFindings found) {
      this.found = found;
    }

    @Override
    public void call(Conversation.Turn<WindowEvent> t, WindowEvent call) {
      if (roles.of(call.event()) != ToolRoles.Role.WRITE
          || !EventFields.SUCCESS.contains(EventFields.status(call.event()))) {
        return;
      }
      if (t.user() != null) {
        judge(t, call);
      } else {
        pending.computeIfAbsent(t, k -> new Newest<>(MAX_PENDING)).add(call);
      }
    }

    @Override
    public void complete(Conversation.Turn<WindowEvent> t) {
      Newest<WindowEvent> early = pending.remove(t);
      if (early != null && t.user() != null) {
        early.items().forEach(call -> judge(t, call));
      }
      if (t.answer() != null) {
        previous = t.answer();
      }
      read = null;
    }

    private void judge(Conversation.Turn<WindowEvent> t, WindowEvent call) {
      if (read != t) {
        read = t;
        confirmed = Phrases.first(t.userWords(), affirmatives) != null;
      }
      if (confirmed) {
        return;
      }
      String asked;
      if (previous == null) {
        if (!words.whenNoEarlierAnswer()) {
          return;
        }
        asked = "no earlier answer";
      } else {
        String answer = Conversation.text(previous);
        asked = answer.contains("?") ? "?" : Phrases.first(Phrases.words(answer), asks);
        if (asked == null) {
          return;
        }
      }
      ObjectNode details =
          JsonNodeFactory.instance
              .objectNode()
              .put("tool", ToolRoles.toolName(call.event()))
              .put("asked", asked);
      List<WindowEvent> cited = new ArrayList<>(3);
      if (previous != null) {
        cited.add(previous);
      }
      cited.add(t.user());
      cited.add(call);
      found.add(t, call, cited, call.event().kind() + ".unconfirmed", STATUS, details);
    }
  }
}
