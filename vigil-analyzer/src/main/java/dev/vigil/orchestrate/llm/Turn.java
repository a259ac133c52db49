package dev.vigil.orchestrate.llm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.diagnose.detect.WindowEvent;
import dev.vigil.dialogue.Claims;
import dev.vigil.dialogue.Conversation;
import dev.vigil.dialogue.SessionKey;
import dev.vigil.dialogue.ToolRoles;
import dev.vigil.observe.Event;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.function.Predicate;

/**
 * One turn of a conversation as the window holds it (docs/DESIGN.md#the-event): the {@code
 * turn.user} message that opened it, the events it made (tool calls and whatever else carries its
 * turn id), and the {@code turn.answer} that closed it.
 *
 * @param session the conversation ({@link SessionKey#of})
 * @param id the turn id, or its place ({@code #1}) when the events carry none
 * @param start the index in the window of the turn's first event (what came before it is earlier
 *     evidence)
 * @param user the {@code turn.user} event, or null
 * @param calls the turn's other events, oldest first
 * @param answer the {@code turn.answer} event, or null
 */
record Turn(
    String session,
    String id,
    int start,
    WindowEvent user,
    List<WindowEvent> calls,
    WindowEvent answer) {
  static final String USER = "turn.user";
  static final String ANSWER = "turn.answer";

  /** Copies the list. */
  Turn {
    calls = List.copyOf(calls);
  }

  /**
   * The window's turns as the one model of the dialogue reads them ({@link Conversation}): turns
   * with an id and turns placed by position alike, in the order they began. A turn's calls are its
   * tool calls.
   */
  static List<Turn> all(List<WindowEvent> window) {
    IdentityHashMap<WindowEvent, Integer> index = new IdentityHashMap<>();
    for (int i = 0; i < window.size(); i++) {
      index.put(window.get(i), i);
    }
    List<Turn> turns = new ArrayList<>();
    Conversation<WindowEvent> dialogue = new Conversation<>();
    dialogue.subscribe(
        session ->
            new Conversation.Reader<>() {
              private final IdentityHashMap<Conversation.Turn<WindowEvent>, List<WindowEvent>>
                  calls = new IdentityHashMap<>();

              @Override
              public void call(Conversation.Turn<WindowEvent> turn, WindowEvent call) {
                calls.computeIfAbsent(turn, k -> new ArrayList<>()).add(call);
              }

              @Override
              public void complete(Conversation.Turn<WindowEvent> turn) {
                List<WindowEvent> made = calls.getOrDefault(turn, List.of());
                calls.remove(turn);
                int start = Integer.MAX_VALUE;
                for (WindowEvent w : made) {
                  start = Math.min(start, index.get(w));
                }
                for (WindowEvent w : new WindowEvent[] {turn.user(), turn.answer()}) {
                  if (w != null) {
                    start = Math.min(start, index.get(w));
                  }
                }
                turns.add(
                    new Turn(turn.session(), turn.id(), start, turn.user(), made, turn.answer()));
              }
            });
    window.forEach(dialogue::accept);
    dialogue.finish();
    turns.sort(Comparator.comparingInt(Turn::start));
    return turns;
  }

  /** The tool name of an event ({@link ToolRoles#toolName}). */
  static String tool(Event e) {
    return ToolRoles.toolName(e);
  }

  /**
   * The text of a {@code turn.user} or {@code turn.answer} event ({@code payload.text}), or "" .
   */
  static String text(WindowEvent w) {
    if (w == null) {
      return "";
    }
    JsonNode t = w.event().payload().get("text");
    return t != null && t.isTextual() ? t.asText() : "";
  }

  /** The names of the write tools the turn called, in order. */
  List<String> writes(Predicate<String> writeTool) {
    List<String> out = new ArrayList<>();
    for (WindowEvent w : calls) {
      if (ToolRoles.isToolCall(w.event()) && writeTool.test(tool(w.event()))) {
        out.add(tool(w.event()));
      }
    }
    return out;
  }

  /** The word by which the answer claims a write, or null. */
  String claim(Claims claims) {
    return claims.in(text(answer));
  }

  /**
   * The event a verdict on the turn is keyed on and dated by: the answer, else the turn's last
   * event.
   */
  WindowEvent last() {
    if (answer != null) {
      return answer;
    }
    return calls.isEmpty() ? user : calls.get(calls.size() - 1);
  }

  /** The refs of the turn's events, oldest first. */
  List<Long> refs() {
    List<Long> out = new ArrayList<>();
    if (user != null) {
      out.add(user.ref());
    }
    calls.forEach(w -> out.add(w.ref()));
    if (answer != null) {
      out.add(answer.ref());
    }
    return out;
  }

  /** The same session's events before this turn began, oldest first. */
  List<WindowEvent> earlier(List<WindowEvent> window) {
    List<WindowEvent> out = new ArrayList<>();
    for (int i = 0; i < start; i++) {
      if (session.equals(SessionKey.of(window.get(i).event()))) {
        out.add(window.get(i));
      }
    }
    return out;
  }
}
