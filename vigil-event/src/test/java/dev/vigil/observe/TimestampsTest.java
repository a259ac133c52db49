package dev.vigil.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TimestampsTest {

  @Test
  void writesMicrosecondsInUtc() {
    assertEquals(
        "2026-11-22T10:15:30.123456Z",
        Timestamps.format(Instant.parse("2026-11-22T10:15:30.123456Z")));
    assertEquals(
        "2026-11-22T10:15:30.000000Z", Timestamps.format(Instant.parse("2026-11-22T10:15:30Z")));
    assertEquals(
        "2026-11-22T10:15:30.120000Z", Timestamps.format(Instant.parse("2026-11-22T10:15:30.12Z")));
  }

  @Test
  void writesNanosecondsOnlyWhenPresent() {
    assertEquals(
        "2026-11-22T10:15:30.123456789Z",
        Timestamps.format(Instant.parse("2026-11-22T10:15:30.123456789Z")));
  }

  @ParameterizedTest
  @CsvSource({
    "2025-10-31T23:59:59Z, 2025-10-31T23:59:59Z",
    "2025-10-31T23:59:59.5Z, 2025-10-31T23:59:59.500Z",
    "2025-11-01T01:59:59+02:00, 2025-10-31T23:59:59Z",
    "2025-10-31T18:59:59-05:00, 2025-10-31T23:59:59Z",
    "2025-10-31 23:59:59Z, 2025-10-31T23:59:59Z"
  })
  void normalizesOffsetsToUtc(String text, String utc) {
    Timestamps.Reading r = Timestamps.parse(text, ZoneId.of("Europe/Paris"));
    assertEquals(Instant.parse(utc), r.instant());
    assertFalse(r.naive());
  }

  @ParameterizedTest
  @CsvSource({"2025-10-31T23:59:59", "2025-10-31 23:59:59"})
  void readsNaiveTimestampsInTheAssumedZone(String text) {
    Timestamps.Reading utc = Timestamps.parse(text, ZoneOffset.UTC);
    assertEquals(Instant.parse("2025-10-31T23:59:59Z"), utc.instant());
    assertTrue(utc.naive());
    Timestamps.Reading paris = Timestamps.parse(text, ZoneId.of("Europe/Paris"));
    assertEquals(Instant.parse("2025-10-31T22:59:59Z"), paris.instant());
    assertTrue(paris.naive());
  }

  @ParameterizedTest
  @CsvSource({"yesterday", "2025-13-01T00:00:00Z", "2025-10-31", "''", "2025-10-31T25:00:00"})
  void rejectsUnreadableTimestamps(String text) {
    assertThrows(DateTimeException.class, () -> Timestamps.parse(text, ZoneOffset.UTC));
  }

  @Test
  void theFastPathAgreesWithTheFormatterOnEveryCanonicalForm() {
    java.util.SplittableRandom random = new java.util.SplittableRandom(42);
    for (int i = 0; i < 20_000; i++) {
      Instant t =
          Instant.ofEpochSecond(
              random.nextLong(-62_000_000_000L, 250_000_000_000L), random.nextInt(1_000_000_000));
      String text = t.toString();
      Instant fast = Timestamps.parseCanonicalUtc(text);
      if (text.startsWith("-") || text.startsWith("+")) {
        assertEquals(null, fast, text);
        continue;
      }
      assertEquals(t, fast, text);
      assertEquals(t, Timestamps.parse(text, ZoneOffset.UTC).instant(), text);
    }
  }

  @ParameterizedTest
  @CsvSource({
    "2025-02-29T00:00:00Z",
    "2025-10-31T23:59:60Z",
    "2025-10-31T23:59:59.Z",
    "2025-10-31T23:59:59.1234567890Z",
    "2025-10-3aT23:59:59Z",
    "2025-10-31T23:59:59+00:00",
    "2025-10-31 23:59:59Z"
  })
  void leavesEveryOtherFormToTheGeneralPath(String text) {
    assertEquals(null, Timestamps.parseCanonicalUtc(text));
  }

  @Test
  void secondsFormattedInTurnEachKeepTheirOwnText() {
    Instant a = Instant.parse("2026-11-22T10:15:30.5Z");
    Instant b = Instant.parse("1999-12-31T23:59:59.25Z");
    for (int i = 0; i < 3; i++) {
      assertEquals("2026-11-22T10:15:30.500000Z", Timestamps.format(a));
      assertEquals("1999-12-31T23:59:59.250000Z", Timestamps.format(b));
      assertEquals("2026-11-22T10:15:30.500001Z", Timestamps.format(a.plusNanos(1000)));
    }
  }
}
