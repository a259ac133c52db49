package dev.vigil.watch;

import java.time.Duration;
import java.time.Instant;

/**
 * {@code --every}: passes at {@code start + k·every}. A pass that overruns one or more slots is
 * followed by the next slot still ahead; missed slots are not made up.
 */
final class EverySchedule {
  private final Instant start;
  private final Duration every;
  private Instant next;

  /** The first pass is due at {@code start + every}. */
  public EverySchedule(Instant start, Duration every) {
    this.start = start;
    this.every = every;
    this.next = start.plus(every);
  }

  /** Whether a pass is due at {@code now}. */
  public boolean due(Instant now) {
    return !now.isBefore(next);
  }

  /** When the next pass is due. */
  public Instant next() {
    return next;
  }

  /** A pass ran at {@code now}: the next slot is the first one after it. */
  public void passed(Instant now) {
    long slots = Duration.between(start, now).toNanos() / every.toNanos() + 1;
    next = start.plus(every.multipliedBy(slots));
  }
}
