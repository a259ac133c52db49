package dev.vigil.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class EveryScheduleTest {
  private static final Instant START = Instant.parse("2026-11-22T12:00:00Z");

  @Test
  void dueAtEachMultipleOfThePeriodFromTheStart() {
    EverySchedule s = new EverySchedule(START, Duration.ofSeconds(30));
    assertFalse(s.due(START.plusSeconds(29)));
    assertTrue(s.due(START.plusSeconds(30)));
    s.passed(START.plusMillis(30_200));
    assertEquals(
        START.plusSeconds(60), s.next(), "a pass that starts late does not shift the schedule");
  }

  @Test
  void aPassThatOverrunsSkipsTheMissedSlots() {
    EverySchedule s = new EverySchedule(START, Duration.ofSeconds(10));
    s.passed(START.plusSeconds(35));
    assertEquals(START.plusSeconds(40), s.next());
    assertFalse(s.due(START.plusSeconds(39)));
  }
}
