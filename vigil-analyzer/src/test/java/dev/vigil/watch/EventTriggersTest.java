package dev.vigil.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class EventTriggersTest {
  private static final Instant T0 = Instant.parse("2026-11-22T12:00:00Z");

  @Test
  void afterEventsFiresAtTheNthNewEventAndCountsAgainAfterAPass() {
    EventTriggers t = new EventTriggers(3, null);
    assertNull(t.deposited(T0, false));
    assertNull(t.deposited(T0, true));
    assertEquals(Trigger.AFTER_EVENTS, t.deposited(T0, false));
    assertEquals(Trigger.AFTER_EVENTS, t.pending());
    assertEquals(3, t.eventsSincePass());
    t.passed();
    assertNull(t.pending());
    assertNull(t.deposited(T0, false));
    assertNull(t.deposited(T0, false));
    assertEquals(Trigger.AFTER_EVENTS, t.deposited(T0, false));
  }

  @Test
  void onThornsFiresAtTheKthThornWithinTheWindowOfEventTime() {
    EventTriggers t = new EventTriggers(0, new ThornRate(3, Duration.ofMinutes(1)));
    assertNull(t.deposited(T0, true));
    assertNull(t.deposited(T0.plusSeconds(10), false));
    assertNull(t.deposited(T0.plusSeconds(20), true));
    assertEquals(Trigger.ON_THORNS, t.deposited(T0.plusSeconds(60), true));
  }

  @Test
  void thornsOlderThanTheWindowDoNotCount() {
    EventTriggers t = new EventTriggers(0, new ThornRate(3, Duration.ofMinutes(1)));
    t.deposited(T0, true);
    t.deposited(T0.plusSeconds(30), true);
    assertNull(t.deposited(T0.plusSeconds(61), true), "the first thorn left the window");
    assertNull(t.pending());
    assertEquals(Trigger.ON_THORNS, t.deposited(T0.plusSeconds(62), true));
  }

  @Test
  void aFiringStartsTheThornCountAgain() {
    EventTriggers t = new EventTriggers(0, new ThornRate(2, Duration.ofMinutes(1)));
    t.deposited(T0, true);
    assertEquals(Trigger.ON_THORNS, t.deposited(T0.plusSeconds(1), true));
    t.passed();
    assertNull(t.deposited(T0.plusSeconds(2), true), "one thorn since the last firing");
    assertEquals(Trigger.ON_THORNS, t.deposited(T0.plusSeconds(3), true));
  }

  @Test
  void theFirstTriggerThatFiredStaysPendingUntilAPass() {
    EventTriggers t = new EventTriggers(2, new ThornRate(2, Duration.ofMinutes(1)));
    t.deposited(T0, true);
    assertEquals(Trigger.ON_THORNS, t.deposited(T0, true));
    t.deposited(T0, false);
    assertEquals(Trigger.ON_THORNS, t.pending());
  }

  @Test
  void offTriggersNeverFire() {
    EventTriggers t = new EventTriggers(0, null);
    for (int i = 0; i < 100; i++) {
      assertNull(t.deposited(T0, true));
    }
    assertEquals(100, t.eventsSincePass());
  }
}
