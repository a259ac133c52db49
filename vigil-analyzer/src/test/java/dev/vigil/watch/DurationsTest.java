package dev.vigil.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationsTest {
  @Test
  void readsANumberAndAUnit() {
    assertEquals(Duration.ofSeconds(30), Durations.parse("30s", "--every"));
    assertEquals(Duration.ofMinutes(10), Durations.parse("10m", "--every"));
    assertEquals(Duration.ofHours(1), Durations.parse("1h", "--every"));
    assertEquals(Duration.ofMillis(500), Durations.parse("500ms", "--every"));
    assertEquals(Duration.ofDays(2), Durations.parse("2d", "--every"));
  }

  @Test
  void refusesOtherShapesNamingTheOptionAndTheValue() {
    for (String bad : new String[] {"", "30", "s", "1.5h", "-1m", "10 minutes", "1h30m", "10x"}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> Durations.parse(bad, "--every"));
      assertTrue(
          e.getMessage().startsWith("--every \"" + bad + "\" is not a duration"), e.getMessage());
    }
  }

  @Test
  void refusesZero() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Durations.parse("0s", "--every"));
    assertEquals("--every \"0s\" must be longer than zero", e.getMessage());
  }
}
