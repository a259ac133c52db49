package dev.vigil.diagnose.policy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.observe.Event;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;

/**
 * What a policy rule's {@code session} holds: the events of the call's own session that came before it in the window,
 * oldest first ({@code session.last(kind)}, {@code session.calls(kind)}, {@code session.user_texts}).
 *
 * @param earlier the session's earlier events, oldest first
 * @param asCel   each event as CEL sees it, shared by the evaluations of one window (events are converted once)
 */
record SessionHistory(List<Event> earlier, Map<Event, Map<String, Object>> asCel) {
  /** The kind of the user's messages, whose {@code payload.text} are the session's user texts. */
  static final String USER_TURN = "turn.user";

  /** The latest earlier event of this kind, as a map, or CEL's null. */
  Object last(String kind) {
    for (int i = earlier.size() - 1; i >= 0; i--) {
      Event e = earlier.get(i);
      if (e.kind().equals(kind)) {
        return cel(e);
      }
    }
    return CelValues.NULL;
  }

  /** The earlier events of this kind, oldest first, as maps. */
  List<Object> calls(String kind) {
    List<Object> out = new ArrayList<>();
    for (Event e : earlier) {
      if (e.kind().equals(kind)) {
        out.add(cel(e));
      }
    }
    return Collections.unmodifiableList(out);
  }

  /** The texts of the session's earlier user messages ({@code turn.user} events), oldest first. */
  List<String> userTexts() {
    List<String> out = new ArrayList<>();
    for (Event e : earlier) {
      JsonNode text = e.payload().get("text");
      if (e.kind().equals(USER_TURN) && text != null && text.isTextual()) {
        out.add(text.asText());
      }
    }
    return Collections.unmodifiableList(out);
  }

  private Map<String, Object> cel(Event e) {
    return asCel.computeIfAbsent(e, CelValues::event);
  }
}
