package dev.vigil.observe.writer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.observe.capture.Copy;
import dev.vigil.observe.capture.Role;
import dev.vigil.observe.capture.Site;
import dev.vigil.observe.capture.Snapshot;
import dev.vigil.observe.capture.ValueCapture;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.DayOfWeek;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.Period;
import java.time.Year;
import java.time.YearMonth;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Values nested at any depth are recorded as the JSON tree of their fields, JDK value types inside
 * them as they are written at the top level: dates and times as ISO text, {@code Optional} as its
 * content, numbers exact.
 */
class ValueCaptureTest {
  private static final Site SITE =
      new Site(0, Role.TOOL, "demo.Bookings", "find", List.of("number"), "find", "tool.find");

  enum Status {
    CONFIRMED,
    CANCELLED
  }

  record Customer(String name, LocalDate since, Optional<String> email) {}

  record Booking(String number, LocalDate from, LocalDate to, Status status, Customer customer) {}

  record Times(
      Instant instant,
      LocalDateTime local,
      OffsetDateTime offset,
      ZonedDateTime zoned,
      LocalTime time,
      Duration duration,
      Period period,
      ZoneId zone,
      ZoneOffset zoneOffset,
      Year year,
      YearMonth month,
      DayOfWeek day) {}

  record Optionals(
      Optional<LocalDate> date,
      Optional<String> empty,
      OptionalInt count,
      OptionalLong none,
      OptionalDouble ratio,
      Optional<Optional<UUID>> nested) {}

  record Money(BigDecimal amount, BigInteger cents, UUID id, double rate, long big) {}

  record Holder(Object value) {}

  static final class Cycle {
    Cycle next;
  }

  private static final UUID ID = UUID.fromString("0f8fad5b-d9cb-469f-a165-70867728950e");
  private static final LocalDate MARCH_1 = LocalDate.of(2025, 3, 1);
  private static final Booking BOOKING =
      new Booking(
          "B-1",
          MARCH_1,
          LocalDate.of(2025, 3, 4),
          Status.CONFIRMED,
          new Customer("Ada", LocalDate.of(2020, 1, 31), Optional.of("ada@example.org")));
  private static final String BOOKING_JSON =
      "{\"number\":\"B-1\",\"from\":\"2025-03-01\",\"to\":\"2025-03-04\","
          + "\"status\":\"CONFIRMED\",\"customer\":{\"name\":\"Ada\",\"since\":\"2020-01-31\","
          + "\"email\":\"ada@example.org\"}}";

  static Stream<Arguments> nestedValues() {
    Map<String, Object> byDate = new LinkedHashMap<>();
    byDate.put("first", List.of(MARCH_1, Duration.ofMinutes(90)));
    byDate.put("ids", Map.of("a", ID));
    Map<LocalDate, Status> keyedByDate = new LinkedHashMap<>();
    keyedByDate.put(MARCH_1, Status.CANCELLED);
    List<Object> mixed = new ArrayList<>();
    mixed.add(Optional.of(BOOKING.customer()));
    mixed.add(Optional.empty());
    mixed.add(null);
    return Stream.of(
        Arguments.of("a record with dates and a record inside", BOOKING, BOOKING_JSON),
        Arguments.of(
            "a list of such records",
            List.of(BOOKING, BOOKING),
            "[" + BOOKING_JSON + "," + BOOKING_JSON + "]"),
        Arguments.of("a map of such records", Map.of("b", BOOKING), "{\"b\":" + BOOKING_JSON + "}"),
        Arguments.of(
            "every java.time type as ISO text",
            new Times(
                Instant.parse("2025-03-01T09:30:00Z"),
                LocalDateTime.of(2025, 3, 1, 9, 30),
                OffsetDateTime.of(2025, 3, 1, 9, 30, 0, 0, ZoneOffset.ofHours(1)),
                ZonedDateTime.of(2025, 3, 1, 9, 30, 0, 0, ZoneId.of("Europe/Paris")),
                LocalTime.of(9, 30, 15),
                Duration.ofMinutes(90),
                Period.ofDays(3),
                ZoneId.of("Europe/Paris"),
                ZoneOffset.ofHours(-5),
                Year.of(2025),
                YearMonth.of(2025, 3),
                DayOfWeek.MONDAY),
            "{\"instant\":\"2025-03-01T09:30:00Z\",\"local\":\"2025-03-01T09:30\","
                + "\"offset\":\"2025-03-01T09:30+01:00\",\"zoned\":\"2025-03-01T09:30+01:00[Europe/Paris]\","
                + "\"time\":\"09:30:15\",\"duration\":\"PT1H30M\","
                + "\"period\":\"P3D\",\"zone\":\"Europe/Paris\",\"zoneOffset\":\"-05:00\",\"year\":\"2025\","
                + "\"month\":\"2025-03\",\"day\":\"MONDAY\"}"),
        Arguments.of(
            "optionals as their content, empty as null",
            new Optionals(
                Optional.of(MARCH_1),
                Optional.empty(),
                OptionalInt.of(3),
                OptionalLong.empty(),
                OptionalDouble.of(0.5),
                Optional.of(Optional.of(ID))),
            "{\"date\":\"2025-03-01\",\"empty\":null,\"count\":3,\"none\":null,\"ratio\":0.5,"
                + "\"nested\":\"0f8fad5b-d9cb-469f-a165-70867728950e\"}"),
        Arguments.of(
            "numbers exact, UUID as text",
            new Money(
                new BigDecimal("12.50"),
                new BigInteger("123456789012345678901234567890"),
                ID,
                0.1,
                9_007_199_254_740_993L),
            "{\"amount\":12.50,\"cents\":123456789012345678901234567890,"
                + "\"id\":\"0f8fad5b-d9cb-469f-a165-70867728950e\",\"rate\":0.1,\"big\":9007199254740993}"),
        Arguments.of(
            "nested collections and maps",
            byDate,
            "{\"first\":[\"2025-03-01\",\"PT1H30M\"],\"ids\":{\"a\":\"0f8fad5b-d9cb-469f-a165-70867728950e\"}}"),
        Arguments.of("a map keyed by dates", keyedByDate, "{\"2025-03-01\":\"CANCELLED\"}"),
        Arguments.of(
            "optionals and nulls in a list",
            mixed,
            "[{\"name\":\"Ada\",\"since\":\"2020-01-31\",\"email\":\"ada@example.org\"},null,null]"),
        Arguments.of("an Optional at the top", Optional.of(BOOKING), BOOKING_JSON),
        Arguments.of(
            "a JDK value deep in an Object field",
            new Holder(new Holder(new Holder(Duration.ofMillis(1500)))),
            "{\"value\":{\"value\":{\"value\":\"PT1.5S\"}}}"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("nestedValues")
  void nestedValuesAreRecordedAsTheirJsonTree(String what, Object value, String json) {
    Object captured = new ValueCapture().capture(value, SITE, -1);
    assertTrue(
        captured instanceof Snapshot || captured instanceof Copy,
        () -> what + " was recorded as " + captured);
    String written =
        captured instanceof Copy
            ? Encoded.value(Encoded.writer(4096), captured, false, SITE, -1).toString()
            : captured.toString();
    assertEquals(json, written, what);
  }

  @Test
  void topLevelJdkValuesStayText() {
    ValueCapture capture = new ValueCapture();
    assertEquals("2025-03-01", capture.capture(MARCH_1, SITE, 0));
    assertEquals("PT1H30M", capture.capture(Duration.ofMinutes(90), SITE, 0));
    assertEquals("CONFIRMED", capture.capture(Status.CONFIRMED, SITE, 0));
    assertEquals(new BigDecimal("12.50"), capture.capture(new BigDecimal("12.50"), SITE, 0));
  }

  @Test
  void aCyclicGraphIsUnreadableNotAStackOverflow() {
    Cycle cycle = new Cycle();
    cycle.next = cycle;
    Object captured = new ValueCapture().capture(new Holder(cycle), SITE, -1);
    assertInstanceOf(ValueCapture.Unreadable.class, captured);
  }

  @Test
  void redactionAndTheSizeLimitApplyToTheTreeOfARecord() {
    record Login(String user, String password, LocalDate since, String note) {}
    ValueWriter writer = Encoded.writer(200);
    Object small = new ValueCapture().capture(new Login("ada", "hunter2", MARCH_1, "ok"), SITE, -1);
    assertEquals(
        "{\"user\":\"ada\",\"password\":\"***\",\"since\":\"2025-03-01\",\"note\":\"ok\"}",
        Encoded.value(writer, small, false, SITE, -1).toString());
    Object large =
        new ValueCapture().capture(new Login("ada", "hunter2", MARCH_1, "x".repeat(300)), SITE, -1);
    String cut = Encoded.value(writer, large, false, SITE, -1).textValue();
    assertTrue(
        cut.startsWith("{\"user\":\"ada\",\"password\":\"***\",\"since\":\"2025-03-01\""), cut);
    assertTrue(cut.endsWith(" chars)"), cut);
  }
}
