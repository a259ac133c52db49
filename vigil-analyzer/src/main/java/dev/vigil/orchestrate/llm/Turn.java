package dev.vigil.orchestrate.llm;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.diagnose.detect.WindowEvent;
import dev.vigil.observe.Event;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;

/**
 * One turn of a conversation as the window holds it (SPEC section 2): the {@code turn.user} message that opened it,
 * the events it made (tool calls and whatever else carries its turn id), and the {@code turn.answer} that closed it.
 *
 * @param session the conversation, or null when the events name none
 * @param id      the turn id
 * @param start   the index in the window of the turn's first event (what came before it is earlier evidence)
 * @param user    the {@code turn.user} event, or null
 * @param calls   the turn's other events, oldest first
 * @param answer  the {@code turn.answer} event, or null
 */
record Turn(String session, String id, int start, WindowEvent user, List<WindowEvent> calls, WindowEvent answer) {
  static final String USER = "turn.user";
  static final String ANSWER = "turn.answer";
  private static final String TOOL = "tool.";

  /** Copies the list. */
  Turn {
    calls = List.copyOf(calls);
  }

  /** The window's turns (events with a turn id), in the order they began. */
  static List<Turn> all(List<WindowEvent> window) {
    Map<List<String>, List<Integer>> byTurn = new LinkedHashMap<>();
    for (int i = 0; i < window.size(); i++) {
      Event e = window.get(i).event();
      if (e.turn() != null) {
        byTurn.computeIfAbsent(Arrays.asList(e.session(), e.turn()), k -> new ArrayList<>()).add(i);
      }
    }
    List<Turn> turns = new ArrayList<>(byTurn.size());
    byTurn.forEach((key, indexes) -> {
      WindowEvent user = null;
      WindowEvent answer = null;
      List<WindowEvent> calls = new ArrayList<>();
      for (int i : indexes) {
        WindowEvent w = window.get(i);
        switch (w.event().kind()) {
          case USER -> user = user == null ? w : user;
          case ANSWER -> answer = w;
          default -> calls.add(w);
        }
      }
      turns.add(new Turn(key.get(0), key.get(1), indexes.get(0), user, calls, answer));
    });
    return turns;
  }

  /** The tool name of an event: {@code payload.tool}, else the kind without {@code tool.}. */
  static String tool(Event e) {
    JsonNode t = e.payload().get("tool");
    if (t != null && t.isTextual() && !t.asText().isBlank()) {
      return t.asText();
    }
    return e.kind().startsWith(TOOL) ? e.kind().substring(TOOL.length()) : e.kind();
  }

  /** The text of a {@code turn.user} or {@code turn.answer} event ({@code payload.text}), or "" . */
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
      if (w.event().kind().startsWith(TOOL) && writeTool.test(tool(w.event()))) {
        out.add(tool(w.event()));
      }
    }
    return out;
  }

  /** The word by which the answer claims a write, or null. */
  String claim() {
    return Claims.in(text(answer));
  }

  /** The event a verdict on the turn is keyed on and dated by: the answer, else the turn's last event. */
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

  /** The same session's events before this turn began (none when the events name no session), oldest first. */
  List<WindowEvent> earlier(List<WindowEvent> window) {
    List<WindowEvent> out = new ArrayList<>();
    if (session == null) {
      return out;
    }
    for (int i = 0; i < start; i++) {
      if (Objects.equals(session, window.get(i).event().session())) {
        out.add(window.get(i));
      }
    }
    return out;
  }
}
