package dev.vigil.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ThornRateTest {
  @Test
  void readsCountSlashDuration() {
    assertEquals(new ThornRate(3, Duration.ofMinutes(1)), ThornRate.parse("3/1m", "--on-thorns"));
    assertEquals(new ThornRate(10, Duration.ofHours(2)), ThornRate.parse("10/2h", "--on-thorns"));
  }

  @Test
  void refusesBadCountsAndDurationsNamingTheOption() {
    for (String bad : new String[] {"3", "x/1m", "0/1m", "-2/1m", "3/1", "3/", "/1m"}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> ThornRate.parse(bad, "--on-thorns"));
      assertTrue(e.getMessage().startsWith("--on-thorns \"" + bad + "\""), e.getMessage());
    }
  }
}
