package dev.vigil.observe.agent;

import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * Turns {@link System#nanoTime()} readings taken on the calling thread into wall-clock instants when the event is
 * built, so that a call pays for one cheap clock read at each end. The base is re-read from the system clock every
 * ten seconds. Thread-safe: the base is one immutable pair, replaced whole.
 */
final class WallClock {
  private static final long RESYNC = TimeUnit.SECONDS.toNanos(10);

  /** A reading of both clocks at once. */
  private record Base(long epochNanos, long nanoTime) {
    static Base now() {
      Instant now = Instant.now();
      return new Base(now.getEpochSecond() * 1_000_000_000L + now.getNano(), System.nanoTime());
    }
  }

  private volatile Base base = Base.now();

  Instant instant(long nanoTime) {
    Base b = base;
    if (System.nanoTime() - b.nanoTime() > RESYNC) {
      b = Base.now();
      base = b;
    }
    long epochNanos = b.epochNanos() + (nanoTime - b.nanoTime());
    return Instant.ofEpochSecond(Math.floorDiv(epochNanos, 1_000_000_000L), Math.floorMod(epochNanos, 1_000_000_000L));
  }
}
