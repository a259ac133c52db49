package dev.vigil.diagnose.policy;

import dev.vigil.dialogue.SessionKey;
import dev.vigil.observe.Event;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The open sessions of one policy rule's reading of a window, each with its {@link SessionHistory}:
 * a session is {@link SessionKey#of}, as for every reader of the dialogue. At most {@code
 * maxSessions} sessions are kept, and at most {@code maxHeld} events in all their histories: past
 * either, the least recently active sessions are closed (their history dropped; an event of one
 * that comes later begins it anew, with an empty history).
 */
final class PolicySessions {
  /** How many sessions are kept open at most by default. */
  static final int MAX_SESSIONS = 10_000;

  /** How many events all histories hold at most by default. */
  static final int MAX_HELD = 100_000;

  private final HistoryNeeds needs;
  private final int maxSessions;
  private final int maxHeld;

  /** Least recently active first. */
  private final LinkedHashMap<String, SessionHistory> open = new LinkedHashMap<>(64, 0.75f, true);

  private long held;
  private long closedEarly;

  PolicySessions(HistoryNeeds needs, int maxSessions, int maxHeld) {
    this.needs = needs;
    this.maxSessions = maxSessions;
    this.maxHeld = maxHeld;
  }

  /** The history of the event's session so far (opened empty when it is new). */
  SessionHistory of(Event e) {
    String key = SessionKey.of(e);
    SessionHistory h = open.get(key);
    if (h == null) {
      if (open.size() >= maxSessions) {
        closeEldest();
      }
      h = new SessionHistory(needs);
      open.put(key, h);
    }
    return h;
  }

  /**
   * Adds the event to its session's history (after the rule judged it); closes old sessions past
   * the budget.
   */
  void add(SessionHistory h, Event e) {
    int before = h.held();
    h.add(e);
    held += h.held() - before;
    while (held > maxHeld && open.size() > 1) {
      closeEldest();
    }
  }

  private void closeEldest() {
    Iterator<Map.Entry<String, SessionHistory>> eldest = open.entrySet().iterator();
    held -= eldest.next().getValue().held();
    eldest.remove();
    closedEarly++;
  }

  /** How many sessions are open. */
  int size() {
    return open.size();
  }

  /** How many events and texts all histories hold. */
  long held() {
    return held;
  }

  /** How many sessions were closed early to stay within the bounds. */
  long closedEarly() {
    return closedEarly;
  }
}
