package dev.vigil.watch;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A test clock that moves a fixed step at every read: time advances, but never with the machine's
 * speed.
 */
final class SteppingClock extends Clock {
  private final Instant start;
  private final long stepNanos;
  private final AtomicLong reads = new AtomicLong();

  SteppingClock(Instant start, Duration step) {
    this.start = start;
    this.stepNanos = step.toNanos();
  }

  @Override
  public Instant instant() {
    return start.plusNanos(stepNanos * reads.getAndIncrement());
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("a test clock in UTC");
  }
}
