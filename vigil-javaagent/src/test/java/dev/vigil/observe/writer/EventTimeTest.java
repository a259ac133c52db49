package dev.vigil.observe.writer;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vigil.observe.agent.TimeSource;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The time that picks the queue's day files never goes back from what it gave Chronicle: not to an
 * event that waited, nor to one older than the wall clock it gave before the first event (the spill
 * files imported as the queue opened went into that day's file).
 */
class EventTimeTest {
  private static final long DAY = 86_400_000L;
  private static final long MIDNIGHT = 1_796_000_000_000L - 1_796_000_000_000L % DAY;

  /** A wall clock the test moves. */
  private static final class Wall implements TimeSource {
    final AtomicLong millis = new AtomicLong();

    @Override
    public long nanoTime() {
      return millis.get() * 1_000_000;
    }

    @Override
    public Instant now() {
      return Instant.ofEpochMilli(millis.get());
    }
  }

  @Test
  void beforeTheFirstEventItIsTheWallClockAsFirstReadAndAnOlderEventDoesNotSendItBack() {
    Wall wall = new Wall();
    wall.millis.set(MIDNIGHT + 5_000); // five seconds into a day
    EventTime time = new EventTime(wall);
    assertEquals(MIDNIGHT + 5_000, time.currentTimeMillis(), "the wall clock");
    wall.millis.set(MIDNIGHT + 9_000);
    assertEquals(MIDNIGHT + 5_000, time.currentTimeMillis(), "as first read");

    time.advanceTo(MIDNIGHT - 2_000); // an event of the day before, captured before midnight
    assertEquals(MIDNIGHT + 5_000, time.currentTimeMillis(), "not back to the day before");

    time.advanceTo(MIDNIGHT + 7_000);
    assertEquals(MIDNIGHT + 7_000, time.currentTimeMillis(), "a later event moves it on");
    time.advanceTo(MIDNIGHT + 6_000);
    assertEquals(MIDNIGHT + 7_000, time.currentTimeMillis(), "an event that waited does not");
  }

  @Test
  void theFirstEventBeforeAnyReadingSetsIt() {
    Wall wall = new Wall();
    wall.millis.set(MIDNIGHT + 5_000);
    EventTime time = new EventTime(wall);
    time.advanceTo(MIDNIGHT - 2_000);
    assertEquals(MIDNIGHT - 2_000, time.currentTimeMillis(), "its own day's file");
  }
}
