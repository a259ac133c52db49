package dev.vigil.watch;

import java.time.Instant;
import java.util.ArrayDeque;

/**
 * The event-driven triggers of one agent: {@code --after-events N} counts new events deposited
 * since the agent's last pass; {@code --on-thorns K/D} keeps the timestamps of thorn-grade
 * appraisals within the last {@code D} (event time) and fires at the K-th. A trigger that fired
 * stays pending until {@link #passed()}.
 */
final class EventTriggers {
  private final int afterEvents;
  private final ThornRate onThorns;
  private final ArrayDeque<Instant> thorns = new ArrayDeque<>();
  private long eventsSincePass;
  private Trigger pending;

  /**
   * @param afterEvents N, or 0 when {@code --after-events} is off
   * @param onThorns K/D, or null when {@code --on-thorns} is off
   */
  public EventTriggers(int afterEvents, ThornRate onThorns) {
    this.afterEvents = afterEvents;
    this.onThorns = onThorns;
  }

  /**
   * Counts one newly deposited event.
   *
   * @param ts its timestamp
   * @param thorn whether its appraisal is thorn-grade
   * @return the trigger that fired with this event, or null
   */
  public Trigger deposited(Instant ts, boolean thorn) {
    eventsSincePass++;
    Trigger fired = null;
    if (thorn && onThorns != null) {
      thorns.addLast(ts);
      Instant from = ts.minus(onThorns.within());
      thorns.removeIf(t -> t.isBefore(from) || t.isAfter(ts));
      if (thorns.size() >= onThorns.count()) {
        fired = Trigger.ON_THORNS;
        thorns.clear();
      }
    }
    if (fired == null && afterEvents > 0 && eventsSincePass >= afterEvents) {
      fired = Trigger.AFTER_EVENTS;
    }
    if (fired != null && pending == null) {
      pending = fired;
    }
    return fired;
  }

  /** The first trigger that fired since the last pass, or null. */
  public Trigger pending() {
    return pending;
  }

  /** New events deposited since the last pass. */
  public long eventsSincePass() {
    return eventsSincePass;
  }

  /** A pass ran: the counts start again. */
  public void passed() {
    eventsSincePass = 0;
    pending = null;
  }
}
