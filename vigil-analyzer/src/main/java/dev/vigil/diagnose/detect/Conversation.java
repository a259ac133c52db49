package dev.vigil.diagnose.detect;

import dev.vigil.appraise.ToolRoles;
import dev.vigil.observe.Event;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The window read as dialogue (SPEC section 4.4b): sessions of turns, each turn the user message that opened it, the
 * tool calls made while answering it and the answer, oldest first.
 *
 * <p>A session is the events' {@code session}, else their {@code agent}. A turn is the events' {@code turn} id within
 * the session; events without one are placed by position: a {@code turn.user} opens a turn, the tool calls after it
 * join it and a {@code turn.answer} closes it. Only tool calls ({@link ToolRoles#isToolCall}) are calls; other events
 * are not part of the dialogue.
 */
final class Conversation {
  /**
   * One turn.
   *
   * @param session the session's key
   * @param id      the turn's id, or a positional id ({@code #1}, {@code #2}…) when the events carry none
   * @param user    the {@code turn.user} event, or null when the window does not hold it
   * @param calls   the tool calls, oldest first
   * @param answer  the {@code turn.answer} event, or null
   */
  record Turn(String session, String id, WindowEvent user, List<WindowEvent> calls, WindowEvent answer) {
    /** The user's message, or empty. */
    String userText() {
      return text(user);
    }

    /** The agent's answer, or empty. */
    String answerText() {
      return text(answer);
    }

    private static String text(WindowEvent w) {
      return w == null ? "" : w.event().payload().path("text").asText("");
    }

    /** The first event of the turn, for evidence and the derived event's place. */
    WindowEvent first() {
      return user != null ? user : !calls.isEmpty() ? calls.get(0) : answer;
    }
  }

  /**
   * One session.
   *
   * @param id    the session's key
   * @param turns its turns, in the order they began
   */
  record Session(String id, List<Turn> turns) {}

  private Conversation() {}

  /** Whether an event is a user message. */
  static boolean isUser(Event e) {
    return e.kind().equals("turn.user");
  }

  /** Whether an event is an answer. */
  static boolean isAnswer(Event e) {
    return e.kind().equals("turn.answer");
  }

  /** The window's sessions, in the order they began; sessions with no turn.user, answer or call are left out. */
  static List<Session> of(List<WindowEvent> window) {
    Map<String, Builder> sessions = new LinkedHashMap<>();
    for (WindowEvent w : window) {
      Event e = w.event();
      boolean user = isUser(e);
      boolean answer = isAnswer(e);
      if (!user && !answer && !ToolRoles.isToolCall(e)) {
        continue;
      }
      sessions.computeIfAbsent(sessionOf(e), Builder::new).add(w, user, answer);
    }
    List<Session> out = new ArrayList<>(sessions.size());
    sessions.values().forEach(b -> out.add(b.build()));
    return List.copyOf(out);
  }

  /** The session's key: {@code session}, else {@code agent}, else empty. */
  static String sessionOf(Event e) {
    if (e.session() != null) {
      return e.session();
    }
    return e.agent() != null ? e.agent() : "";
  }

  private static final class Builder {
    private final String session;
    private final Map<String, TurnBuilder> turns = new LinkedHashMap<>();
    private TurnBuilder positional;
    private int positions;

    Builder(String session) {
      this.session = session;
    }

    void add(WindowEvent w, boolean user, boolean answer) {
      String id = w.event().turn();
      TurnBuilder t;
      if (id != null) {
        t = turns.computeIfAbsent(id, TurnBuilder::new);
      } else {
        if (positional == null || user && (positional.user != null || !positional.calls.isEmpty())) {
          positional = new TurnBuilder("#" + ++positions);
          turns.put(positional.id, positional);
        }
        t = positional;
      }
      if (user && t.user == null) {
        t.user = w;
      } else if (answer) {
        t.answer = w;
        if (t == positional) {
          positional = null;
        }
      } else if (!user) {
        t.calls.add(w);
      }
    }

    Session build() {
      List<Turn> out = new ArrayList<>(turns.size());
      turns.values().forEach(t -> out.add(new Turn(session, t.id, t.user, List.copyOf(t.calls), t.answer)));
      return new Session(session, List.copyOf(out));
    }
  }

  private static final class TurnBuilder {
    private final String id;
    private final List<WindowEvent> calls = new ArrayList<>();
    private WindowEvent user;
    private WindowEvent answer;

    TurnBuilder(String id) {
      this.id = id;
    }
  }
}
