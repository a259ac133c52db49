package dev.vigil.observe.agent;

import java.time.Instant;
import java.util.concurrent.TimeUnit;

/**
 * Turns {@link System#nanoTime()} readings taken on the calling thread into wall-clock instants on the writer
 * thread, so that a call pays for one cheap clock read at each end. The base is re-read from the system clock
 * every ten seconds. Used by the writer thread only.
 */
final class WallClock {
  private static final long RESYNC = TimeUnit.SECONDS.toNanos(10);

  private long baseEpochNanos;
  private long baseNanoTime;

  WallClock() {
    sync();
  }

  Instant instant(long nanoTime) {
    if (System.nanoTime() - baseNanoTime > RESYNC) {
      sync();
    }
    long epochNanos = baseEpochNanos + (nanoTime - baseNanoTime);
    return Instant.ofEpochSecond(Math.floorDiv(epochNanos, 1_000_000_000L), Math.floorMod(epochNanos, 1_000_000_000L));
  }

  private void sync() {
    Instant now = Instant.now();
    baseNanoTime = System.nanoTime();
    baseEpochNanos = now.getEpochSecond() * 1_000_000_000L + now.getNano();
  }
}
