package dev.vigil.diagnose.detect;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The newest {@code limit} events a detector has put aside by ref, whole: a detector that holds
 * {@link EventFields#slim compact copies} while it waits to judge them cites the whole event when
 * it is still among these, so the report shows its arguments and result, and memory stays bounded.
 */
final class RecentEvents {
  private final Map<Long, WindowEvent> byRef;

  /** Keeps at most {@code limit} events. */
  RecentEvents(int limit) {
    this.byRef =
        new LinkedHashMap<>(16, 0.75f, false) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<Long, WindowEvent> eldest) {
            return size() > limit;
          }
        };
  }

  /** Puts an event aside (the oldest kept falls off once {@code limit} are kept). */
  void keep(WindowEvent w) {
    byRef.put(w.ref(), w);
  }

  /** The whole event {@code held} is a copy of, when it is still kept; else {@code held} itself. */
  WindowEvent whole(WindowEvent held) {
    WindowEvent w = byRef.get(held.ref());
    return w != null && w.identity() == held.identity() ? w : held;
  }

  /** How many are kept. */
  int size() {
    return byRef.size();
  }
}
