package dev.vigil.diagnose.policy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.diagnose.detect.Newest;
import dev.vigil.observe.Event;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a policy rule's {@code session} holds of one session, in memory that does not grow with the
 * session: of the session's events read so far, for each kind the rule reads ({@link
 * HistoryNeeds}), the latest one ({@code session.last(kind)}) or the newest {@value #MAX_KEPT}
 * ({@code session.calls(kind)}), and the newest {@value #MAX_KEPT} user texts ({@code
 * session.user_texts}), oldest first. A rule whose kinds cannot be told from its expression gets
 * the newest {@value #MAX_KEPT} of each of the {@value #MAX_KINDS} kinds seen last. Events are
 * converted to CEL maps once, when first read.
 */
final class SessionHistory {
  /** How many of the newest events of one kind, and of the newest user texts, are kept. */
  static final int MAX_KEPT = 100;

  /** How many kinds are kept (the most recently seen) when the rule may read any kind. */
  static final int MAX_KINDS = 32;

  /** The kind of the user's messages, whose {@code payload.text} are the session's user texts. */
  static final String USER_TURN = "turn.user";

  private final HistoryNeeds needs;
  private final Newest<String> userTexts = new Newest<>(MAX_KEPT);
  private final Map<String, Newest<Held>> byKind =
      new LinkedHashMap<>(8, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Newest<Held>> eldest) {
          if (size() <= MAX_KINDS) {
            return false;
          }
          held -= eldest.getValue().items().size();
          return true;
        }
      };
  private int held;

  SessionHistory(HistoryNeeds needs) {
    this.needs = needs;
  }

  /** One event of the session, read after the rule judged it. */
  void add(Event e) {
    if (needs.userTexts() && e.kind().equals(USER_TURN)) {
      JsonNode text = e.payload().get("text");
      if (text != null && text.isTextual()) {
        userTexts.add(text.asText());
        held += userTexts.total() <= MAX_KEPT ? 1 : 0;
      }
    }
    int keep = needs.keep(e.kind(), MAX_KEPT);
    if (keep > 0) {
      Newest<Held> kept = byKind.computeIfAbsent(e.kind(), k -> new Newest<>(keep));
      kept.add(new Held(e));
      held += kept.total() <= keep ? 1 : 0;
    }
  }

  /** How many events and texts are held. */
  int held() {
    return held;
  }

  /** The latest earlier event of this kind, as a map, or CEL's null. */
  Object last(String kind) {
    Newest<Held> kept = byKind.get(kind);
    return kept == null || kept.last() == null ? CelValues.NULL : kept.last().cel();
  }

  /** The newest earlier events of this kind, oldest first, as maps. */
  List<Object> calls(String kind) {
    Newest<Held> kept = byKind.get(kind);
    if (kept == null) {
      return List.of();
    }
    List<Object> out = new ArrayList<>();
    kept.items().forEach(h -> out.add(h.cel()));
    return Collections.unmodifiableList(out);
  }

  /**
   * The texts of the session's newest earlier user messages ({@code turn.user} events), oldest
   * first.
   */
  List<String> userTexts() {
    return userTexts.items();
  }

  /** One event kept, converted to its CEL map when first read. */
  private static final class Held {
    private Event event;
    private Map<String, Object> cel;

    Held(Event event) {
      this.event = event;
    }

    Map<String, Object> cel() {
      if (cel == null) {
        cel = CelValues.event(event);
        event = null;
      }
      return cel;
    }
  }
}
