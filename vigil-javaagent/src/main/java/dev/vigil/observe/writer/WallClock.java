package dev.vigil.observe.writer;

import dev.vigil.observe.agent.TimeSource;
import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * Turns monotonic readings ({@link TimeSource#nanoTime()}) taken on the calling thread into
 * wall-clock instants when the event is built, so that a call pays for one cheap clock read at each
 * end. The base is re-read from the wall clock every ten seconds. Thread-safe: the base is one
 * immutable pair, replaced whole.
 */
final class WallClock {
  private static final long RESYNC = TimeUnit.SECONDS.toNanos(10);

  /** A reading of both clocks at once. */
  private record Base(long epochNanos, long nanoTime) {
    static Base of(TimeSource time) {
      Instant now = time.now();
      return new Base(now.getEpochSecond() * 1_000_000_000L + now.getNano(), time.nanoTime());
    }
  }

  private final TimeSource time;
  private volatile Base base;

  WallClock(TimeSource time) {
    this.time = time;
    this.base = Base.of(time);
  }

  /**
   * The wall-clock time of a {@link System#nanoTime()} reading, in nanoseconds since the epoch. The
   * reading itself tells when the base is due to be read again (it was taken moments ago), so that
   * this costs no clock read.
   */
  long epochNanos(long nanoTime) {
    Base b = base;
    if (nanoTime - b.nanoTime() > RESYNC) {
      b = Base.of(time);
      base = b;
    }
    return b.epochNanos() + (nanoTime - b.nanoTime());
  }
}
