package dev.vigil.observe.writer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.vigil.observe.SmileOut;
import dev.vigil.observe.capture.Copy;
import dev.vigil.observe.capture.Role;
import dev.vigil.observe.capture.Site;
import dev.vigil.observe.capture.Snapshot;
import dev.vigil.observe.capture.ValueCapture;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A small map, list or bean copied on the calling thread is written as Jackson's snapshot of the
 * object itself would be, and is what the object held at the call.
 */
class CopyValuesTest {
  private static final Site SITE =
      new Site(1, Role.TOOL, "demo.Tools", "plan", List.of("trip"), "plan", "tool.plan");

  enum Kind {
    SUN,
    RAIN
  }

  record Stop(String place, int minutes, Kind kind) {}

  /** A record whose accessor is not its field: Vigil's mapper reads fields, and so does a copy. */
  record Shout(String word, List<String> more) {
    @Override
    public String word() {
      return word.toUpperCase(Locale.ROOT);
    }
  }

  /** A record of values that can change: copied as a bean is. */
  record Tagged(String name, List<Object> tags, Optional<Object> note, Map<String, Object> more) {}

  /** A bean as tools take and return them: private fields, no getters. */
  @SuppressWarnings({"UnusedVariable", "FieldCanBeLocal", "unused"}) // read by Vigil's capture
  static final class Leg {
    private static final String IGNORED = "static";
    private final String from;
    private int minutes;
    private transient String cache = "not written";
    private final Object anything;
    private final List<Object> extras;
    private Map<String, Object> more;
    private long id;
    private double price;
    private boolean paid;
    private Short seats;
    private Byte deck;
    private Kind kind;
    private UUID ref;
    private LocalDate day;
    private Stop stop;

    Leg(SplittableRandom r, Object anything, List<Object> extras, Map<String, Object> more) {
      this.from = r.nextInt(5) == 0 ? null : Samples.word(r);
      this.minutes = r.nextInt(-100, 1000);
      this.anything = anything;
      this.extras = extras;
      this.more = more;
      this.id = r.nextLong();
      this.price = r.nextInt(4) == 0 ? Double.NaN : r.nextDouble() * 1e4;
      this.paid = r.nextBoolean();
      this.seats = r.nextBoolean() ? (short) r.nextInt(500) : null;
      this.deck = (byte) r.nextInt(3);
      this.kind = r.nextBoolean() ? Kind.SUN : null;
      this.ref = new UUID(r.nextLong(), r.nextLong());
      this.day = LocalDate.ofEpochDay(r.nextInt(30_000));
      this.stop = new Stop(Samples.word(r), r.nextInt(90), Kind.RAIN);
    }
  }

  /** Jackson's order for this bean is not its fields' order: no copy. */
  @JsonPropertyOrder({"b", "a"})
  @SuppressWarnings("UnusedVariable")
  static final class Ordered {
    private final String a = "first";
    private final String b = "second";
  }

  /** Jackson writes this bean as one string: no copy. */
  static final class Valued {
    private final String a = "kept";

    @JsonValue
    String text() {
      return "valued " + a;
    }
  }

  /** Jackson writes an iterable bean as an array: no copy. */
  @SuppressWarnings("UnusedVariable")
  static final class Pages implements Iterable<String> {
    private final String first = "one";

    @Override
    public Iterator<String> iterator() {
      return List.of(first).iterator();
    }
  }

  private static Object randomValue(SplittableRandom r, int depth) {
    int kind = r.nextInt(depth > 2 ? 10 : 14);
    return switch (kind) {
      case 0, 1 -> Samples.word(r);
      case 2 -> r.nextInt();
      case 3 -> r.nextLong();
      case 4 -> r.nextDouble() * 1e6;
      case 5 -> r.nextBoolean();
      case 6 -> null;
      case 7 -> r.nextInt(20) == 0 ? (Object) 1.5f : Kind.RAIN; // a float: no copy
      case 8 -> r.nextInt(20) == 0 ? BigDecimal.TEN : (Object) LocalDate.of(2026, 11, 29);
      case 9 ->
          r.nextBoolean()
              ? Optional.ofNullable(r.nextInt(3) == 0 ? null : randomValue(r, depth + 1))
              : OptionalInt.of(r.nextInt());
      case 10 -> randomList(r, depth + 1);
      case 11 -> randomMap(r, depth + 1);
      case 12 ->
          new Tagged(
              Samples.word(r),
              randomList(r, depth + 1),
              Optional.ofNullable(r.nextBoolean() ? null : randomValue(r, depth + 1)),
              randomMap(r, depth + 1));
      default ->
          new Leg(r, randomValue(r, depth + 1), randomList(r, depth + 1), randomMap(r, depth + 1));
    };
  }

  private static List<Object> randomList(SplittableRandom r, int depth) {
    List<Object> list = new ArrayList<>();
    for (int i = r.nextInt(4); i > 0; i--) {
      list.add(randomValue(r, depth));
    }
    return list;
  }

  private static Map<String, Object> randomMap(SplittableRandom r, int depth) {
    Map<String, Object> map = r.nextInt(4) == 0 ? new TreeMap<>() : new LinkedHashMap<>();
    for (int i = r.nextInt(4); i > 0; i--) {
      map.put(Samples.name(r), randomValue(r, depth));
    }
    return map;
  }

  @Test
  void aCopyIsWrittenAsJacksonsSnapshotOfTheObjectIs() {
    SplittableRandom r = new SplittableRandom(1129);
    ValueCapture capture = new ValueCapture();
    ValueWriter[] writers = new ValueWriter[Samples.LIMITS.length];
    for (int at = 0; at < Samples.LIMITS.length; at++) {
      writers[at] = Encoded.writer(Samples.LIMITS[at]);
    }
    int copied = 0;
    int notCopied = 0;
    int cut = 0;
    for (int i = 0; i < 5_000; i++) {
      Object value = r.nextBoolean() ? randomMap(r, 0) : randomValue(r, 1);
      Object captured = capture.capture(value, SITE, -1);
      if (!(captured instanceof Copy)) {
        notCopied += captured instanceof Snapshot ? 1 : 0;
        continue;
      }
      copied++;
      Object jackson = capture.tree(value, SITE, -1);
      for (int at = 0; at < Samples.LIMITS.length; at++) {
        SmileOut fast = new SmileOut();
        writers[at].write(captured, false, SITE, -1, fast);
        SmileOut slow = new SmileOut();
        writers[at].write(jackson, false, SITE, -1, slow);
        assertArrayEquals(slow.toByteArray(), fast.toByteArray(), jackson::toString);
        if (Encoded.value(writers[at], captured, false, SITE, -1).isTextual()) {
          cut++;
        }
      }
      assertEquals(
          writers[2].text(jackson),
          writers[2].text(captured),
          "the text of a turn is the snapshot's");
    }
    assertTrue(copied > 2_000, "most values are copied: " + copied);
    assertTrue(notCopied > 200, "a float or a BigDecimal inside leaves a value to Jackson");
    assertTrue(cut > 500, "the size limit cuts some copies, the tree's way: " + cut);
  }

  @Test
  void aRecordIsCopiedFromItsFieldsAsVigilsMapperReadsIt() {
    ValueCapture capture = new ValueCapture();
    Shout shout = new Shout("quiet", List.of("a"));
    Object captured = capture.capture(shout, SITE, -1);
    assertInstanceOf(Copy.class, captured);
    SmileOut copied = new SmileOut();
    Encoded.writer(4096).write(captured, false, SITE, -1, copied);
    SmileOut jackson = new SmileOut();
    Encoded.writer(4096).write(capture.tree(shout, SITE, -1), false, SITE, -1, jackson);
    assertArrayEquals(jackson.toByteArray(), copied.toByteArray());
    assertEquals(
        "{\"word\":\"quiet\",\"more\":[\"a\"]}",
        Encoded.value(Encoded.writer(4096), captured, false, SITE, -1).toString());
  }

  @Test
  void theCopyIsWhatTheObjectHeldAtTheCall() {
    Map<String, Object> result = new LinkedHashMap<>();
    result.put("city", "Oslo");
    List<Object> days = new ArrayList<>(List.of(1, 2));
    result.put("days", days);
    result.put("password", "hunter2");
    Object captured = new ValueCapture().capture(result, SITE, -1);
    result.put("city", "Bergen");
    days.add(3);
    result.put("late", true);
    assertInstanceOf(Copy.class, captured);
    assertEquals(
        "{\"city\":\"Oslo\",\"days\":[1,2],\"password\":\"***\"}",
        Encoded.value(Encoded.writer(4096), captured, false, SITE, -1).toString());

    List<Object> tags = new ArrayList<>(List.of("a"));
    Object record =
        new ValueCapture().capture(new Tagged("t", tags, Optional.of(days), Map.of()), SITE, -1);
    tags.add("b");
    days.add(4);
    assertInstanceOf(Copy.class, record, "a record of lists is copied");
    assertEquals(
        "{\"name\":\"t\",\"tags\":[\"a\"],\"note\":[1,2,3],\"more\":{}}",
        Encoded.value(Encoded.writer(4096), record, false, SITE, -1).toString());
  }

  @Test
  void whatJacksonWritesApartIsNotCopied() {
    ValueCapture capture = new ValueCapture();
    Map<Integer, String> numbered = new LinkedHashMap<>();
    numbered.put(1, "one");
    List<Object> long1 = new ArrayList<>();
    for (int i = 0; i < 65; i++) {
      long1.add(i);
    }
    Map<String, Object> deep = Map.of("a", Map.of("b", Map.of("c", Map.of("d", Map.of()))));
    for (Object value :
        List.of(new Ordered(), new Valued(), new Pages(), numbered, long1, deep, List.of(1.5f))) {
      Object captured = capture.capture(value, SITE, -1);
      assertInstanceOf(Snapshot.class, captured, value.getClass().getName());
    }
    assertEquals(
        "Optional[{}]",
        capture.capture(Optional.of(new LinkedHashMap<>()), SITE, -1),
        "an Optional at the top is Jackson's to write");
    assertEquals(
        "{\"b\":\"second\",\"a\":\"first\"}",
        Encoded.value(
                Encoded.writer(4096), capture.capture(new Ordered(), SITE, -1), false, SITE, -1)
            .toString());
    assertEquals(
        "\"valued kept\"",
        Encoded.value(
                Encoded.writer(4096), capture.capture(new Valued(), SITE, -1), false, SITE, -1)
            .toString());
  }
}
