package dev.vigil.observe.writer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.observe.capture.Copy;
import dev.vigil.observe.capture.RecordShape;
import dev.vigil.observe.capture.Role;
import dev.vigil.observe.capture.Site;
import dev.vigil.observe.capture.Snapshot;
import dev.vigil.observe.capture.ValueCapture;
import java.time.Instant;
import java.time.LocalDate;
import java.time.Month;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A record that cannot change is kept as it is by the calling thread and written from its fields by
 * the writer ({@link RecordValues}): the payload is the one its JSON tree gives (secret names
 * masked, patterns redacted, cut at the same length), and any record it cannot vouch for keeps the
 * tree.
 */
class RecordValuesTest {
  private static final Site SITE =
      new Site(0, Role.TOOL, "demo.Weather", "forecast", List.of("query"), "forecast", "t.f");

  enum Sky {
    CLEAR,
    CLOUDY {
      @Override
      public String toString() {
        return "overcast";
      }
    }
  }

  record Query(String city, int days) {}

  record Forecast(String city, int high, String summary) {}

  record Login(String user, String password, String note) {}

  record Every(
      String text,
      int i,
      long l,
      short s,
      byte b,
      double d,
      boolean flag,
      Integer boxedInt,
      Long boxedLong,
      Double boxedDouble,
      Boolean boxedFlag,
      Sky sky,
      Month month,
      UUID id,
      LocalDate day,
      Instant at,
      Query nested) {}

  record Holder(List<String> items) {}

  record Anything(Object value) {}

  record Annotated(@JsonProperty("town") String city) {}

  record Node(String value, Node next) {}

  record Empty() {}

  /** The payload value as the writer writes the record, and as it writes the record's tree. */
  private static void assertSameAsTree(Object record, int maxChars) {
    ValueWriter writer = Encoded.writer(maxChars);
    Object kept = new ValueCapture().capture(record, SITE, 0);
    assertSame(record, kept, "a record that cannot change is kept as it is");
    Object tree = new ValueCapture().tree(record, SITE, 0);
    assertInstanceOf(Snapshot.class, tree);
    assertEquals(
        Encoded.value(writer, tree, false, SITE, 0),
        Encoded.value(writer, kept, false, SITE, 0),
        () -> record + " at " + maxChars + " chars");
  }

  static Stream<Object> records() {
    return Stream.of(
        new Forecast("Paris", 21, "sunny in Paris for 3 days"),
        new Query(null, -7),
        new Login("ada", "hunter2", "key sk-abcdefghijklmnopqrstuvwxyz012345 in a note"),
        new Every(
            "a \"quoted\"\n\ttext \\ with \u0001 controls and é ✓",
            Integer.MIN_VALUE,
            Long.MAX_VALUE,
            (short) -3,
            (byte) 7,
            Double.NaN,
            true,
            null,
            5_000_000_000L,
            -0.5,
            Boolean.FALSE,
            Sky.CLOUDY,
            Month.MARCH,
            UUID.fromString("123e4567-e89b-12d3-a456-426614174000"),
            LocalDate.of(2026, 11, 27),
            Instant.parse("2026-11-27T09:00:00.123456789Z"),
            new Query("Lyon", 2)),
        new Every(
            "",
            0,
            0,
            (short) 0,
            (byte) 0,
            Double.POSITIVE_INFINITY,
            false,
            42,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null));
  }

  @ParameterizedTest
  @MethodSource("records")
  void aRecordIsWrittenFromItsFieldsAsItsTreeWouldBe(Object record) {
    assertSameAsTree(record, 4096);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"plain words", "with \"quotes\" and \\", "line\nbreak\ttab", "bell\u0007", "é✓"})
  void theCutFallsAtTheSameLengthAsTheTrees(String text) {
    Forecast f = new Forecast(text, 12345, text);
    int json = new ValueCapture().tree(f, SITE, 0).toString().length();
    for (int limit = json - 2; limit <= json + 1; limit++) {
      assertSameAsTree(f, limit);
      JsonNode written = Encoded.value(Encoded.writer(limit), f, false, SITE, 0);
      assertEquals(limit < json, written.isTextual(), "cut at " + limit + " of " + json);
    }
  }

  @Test
  void recordsItCannotVouchForAreTakenAtTheCall() {
    for (Object r :
        List.of(
            new Holder(List.of("a")),
            new Anything("x"),
            new Annotated("Paris"),
            new Node("a", new Node("b", null)))) {
      assertNull(RecordShape.of(r.getClass()), r::toString);
      Object captured = new ValueCapture().capture(r, SITE, 0);
      // copied (CopyValuesTest), or Jackson's snapshot when Jackson writes the record apart
      Class<?> expected = r instanceof Annotated ? Snapshot.class : Copy.class;
      assertEquals(expected, captured.getClass(), r::toString);
    }
    assertNull(RecordShape.of(Empty.class));
    assertEquals("Empty[]", new ValueCapture().capture(new Empty(), SITE, 0));
    assertNotNull(RecordShape.of(Every.class));
  }

  @Test
  void aRecordInATurnsTextIsItsJson() {
    String text = Encoded.writer(4096).text(new Forecast("Nantes", 9, "rain"));
    assertEquals("{\"city\":\"Nantes\",\"high\":9,\"summary\":\"rain\"}", text);
    assertTrue(RecordValues.digits(Long.MIN_VALUE) == Long.toString(Long.MIN_VALUE).length());
  }
}
