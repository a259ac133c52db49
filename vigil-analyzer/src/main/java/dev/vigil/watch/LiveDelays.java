package dev.vigil.watch;

import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;

/**
 * Measures {@code watch}'s append-to-appraisal delay ({@link DelayStats}) for the live events,
 * those appended since {@code watch} started: each event's append time waits here until the commit
 * of its appraisal, whose time on the clock ends its delay.
 */
final class LiveDelays {
  private final DelayStats stats;
  private final Clock clock;
  private final long startedMicros;

  /** Append times, in microseconds, of the live events deposited since the last commit. */
  private long[] waiting = new long[64];

  private int count;

  LiveDelays(DelayStats stats, Clock clock, Instant started) {
    this.stats = stats;
    this.clock = clock;
    this.startedMicros = micros(started);
  }

  /**
   * An event was deposited (or found deposited by the pass that just ended, which read ahead of the
   * tail: measured at the next commit, an upper bound of its delay). Its append time is {@code ts +
   * duration_ms}: the agent writes the event when the call returns. Events appended before {@code
   * watch} started are not live and not measured.
   */
  void deposited(Instant ts, double durationMs) {
    long appended = micros(ts) + Math.round(durationMs * 1000);
    if (appended < startedMicros) {
      return;
    }
    if (count == waiting.length) {
      waiting = Arrays.copyOf(waiting, count * 2);
    }
    waiting[count++] = appended;
  }

  /** Whether deposits wait for their commit to be measured. */
  boolean waiting() {
    return count > 0;
  }

  /** How many deposits wait. */
  int count() {
    return count;
  }

  /** Their appraisals are committed: each delay ends now. */
  void committed() {
    long now = micros(clock.instant());
    for (int i = 0; i < count; i++) {
      stats.add(Math.max(0, now - waiting[i]));
    }
    count = 0;
  }

  private static long micros(Instant t) {
    return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1_000);
  }
}
