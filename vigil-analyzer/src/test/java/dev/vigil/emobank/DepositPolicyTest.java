package dev.vigil.emobank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DepositPolicyTest {
  private static final Instant T = Instant.parse("2026-11-22T10:00:00Z");

  private static EmotionRow row(
      long secondsAfterT, String emotion, double intensity, double valence, String cause) {
    return EmotionRow.of(T.plusSeconds(secondsAfterT), emotion, intensity, valence, cause);
  }

  @Test
  void noiseFloorDropsWeakRowsWithoutASignFlip() {
    EmotionRow prev = row(0, "frustration", 0.9, -0.7, "a:fail");
    assertEquals(List.of(), DepositPolicy.deposit(prev, row(10, "anxiety", 0.2, -0.6, "b:delay")));
    assertEquals(List.of(), DepositPolicy.deposit(null, row(10, "anxiety", 0.2, -0.6, "b:delay")));
  }

  @Test
  void noiseFloorKeepsWeakRowsThatFlipTheSign() {
    EmotionRow prev = row(0, "relief", 0.3, 0.6, "a:ok");
    EmotionRow weak = row(10, "anxiety", 0.2, -0.6, "b:delay");
    assertEquals(List.of(weak), DepositPolicy.deposit(prev, weak));
    EmotionRow zero = row(0, "neutral", 0.3, 0.0, "z:x");
    EmotionRow weakPositive = row(10, "relief", 0.24, 0.6, "c:ok");
    assertEquals(List.of(weakPositive), DepositPolicy.deposit(zero, weakPositive));
  }

  @ParameterizedTest(name = "Δt = {0} s coalesces: {1}")
  @CsvSource({"0, true", "300, true", "301, false", "-1, false"})
  void coalescesSameEmotionAndCauseWithinFiveMinutes(long delta, boolean coalesces) {
    EmotionRow prev = row(1000, "frustration", 0.9, -0.7, "a:fail");
    EmotionRow next = row(1000 + delta, "frustration", 0.9, -0.7, "a:fail");
    List<EmotionRow> out = DepositPolicy.deposit(prev, next);
    assertEquals(1, out.size());
    if (coalesces) {
      EmotionRow amend = out.get(0);
      assertTrue(amend.amend());
      assertEquals(next.ts(), amend.ts());
      assertEquals(1.0, amend.intensity(), 1e-12); // min(1, 0.9 + 0.5·0.9)
    } else {
      assertEquals(next, out.get(0));
    }
  }

  @Test
  void coalescingAmplifiesByHalfTheNewIntensity() {
    EmotionRow prev = row(0, "anxiety", 0.3, -0.6, "t:delay");
    EmotionRow amend = DepositPolicy.deposit(prev, row(60, "anxiety", 0.4, -0.6, "t:delay")).get(0);
    assertEquals(0.5, amend.intensity(), 1e-12);
  }

  @Test
  void differentCauseOrEmotionDoesNotCoalesce() {
    EmotionRow prev = row(0, "frustration", 0.9, -0.7, "a:fail");
    EmotionRow otherCause = row(10, "frustration", 0.9, -0.7, "b:fail");
    assertEquals(List.of(otherCause), DepositPolicy.deposit(prev, otherCause));
  }

  @ParameterizedTest(name = "Δt = {0} s rebounds: {1}")
  @CsvSource({"600, true", "601, false", "0, true", "-5, false"})
  void reboundsFromNegativeToPositiveWithinTenMinutes(long delta, boolean rebounds) {
    EmotionRow prev = row(1000, "frustration", 0.9, -0.7, "a:fail");
    EmotionRow relief = row(1000 + delta, "relief", 0.3, 0.6, "a:ok");
    List<EmotionRow> out = DepositPolicy.deposit(prev, relief);
    assertEquals(relief, out.get(0));
    assertEquals(rebounds ? 2 : 1, out.size());
    if (rebounds) {
      EmotionRow shadow = out.get(1);
      assertEquals("determination", shadow.emotion());
      assertEquals(0.4, shadow.valence(), 1e-12);
      assertEquals(0.36, shadow.intensity(), 1e-12); // min(1, 0.3 + 0.2·0.3)
      assertEquals(EmotionRow.SHADOW, shadow.source());
      assertEquals(relief.ts(), shadow.ts());
    }
  }

  @Test
  void withinAgreesWithTheDurationBetweenTheInstants() {
    Random random = new Random(19);
    Duration window = DepositPolicy.COALESCE_WINDOW;
    long[] offsets = {
      0,
      1,
      -1,
      999_999_999,
      1_000_000_000,
      -1_000_000_000,
      300_000_000_000L,
      300_000_000_001L,
      299_999_999_999L,
      -300_000_000_000L,
      600_000_000_000L
    };
    for (int i = 0; i < 10_000; i++) {
      Instant earlier = T.plusNanos(random.nextInt(1_000_000_000));
      long offset =
          i < offsets.length ? offsets[i] : (long) ((random.nextDouble() - 0.3) * 400_000_000_000L);
      Instant later = earlier.plusNanos(offset);
      Duration delta = Duration.between(earlier, later);
      assertEquals(
          !delta.isNegative() && delta.compareTo(window) <= 0,
          DepositPolicy.within(earlier, later, window),
          earlier + " to " + later);
    }
    assertTrue(DepositPolicy.within(Instant.MIN, Instant.MAX, Duration.ofSeconds(Long.MAX_VALUE)));
  }
}
