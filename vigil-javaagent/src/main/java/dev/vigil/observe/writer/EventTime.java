package dev.vigil.observe.writer;

import dev.vigil.observe.agent.TimeSource;
import net.openhft.chronicle.core.time.TimeProvider;

/**
 * The time Chronicle reads to pick the day file of each excerpt: the latest {@code ts} of the
 * events appended, which the agent has at hand, rather than a read of the system clock at every
 * append (about a tenth of an append's cost on the machine measured). Before the first event it is
 * the wall clock, read once when Chronicle first asks (the spill files imported as the queue opens
 * are appended at that time). It never goes back from what it has given, so neither an event that
 * waited in the hand-off nor one older than that first reading sends the queue back to an earlier
 * day's file: a day file made after a later one would hide the later one from readers until the
 * earlier is closed. Set under the append lock.
 */
final class EventTime implements TimeProvider {
  private final TimeSource clock;
  private volatile long millis;

  EventTime(TimeSource clock) {
    this.clock = clock;
  }

  /** The next excerpt holds an event of this time. */
  void advanceTo(long epochMillis) {
    if (epochMillis > millis) {
      millis = epochMillis;
    }
  }

  @Override
  public long currentTimeMillis() {
    long m = millis;
    if (m == 0) {
      m = clock.now().toEpochMilli();
      advanceTo(m);
    }
    return m;
  }
}
