package dev.vigil.observe.writer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.observe.SmileOut;
import dev.vigil.observe.agent.AgentConfig;
import dev.vigil.observe.agent.Redaction;
import dev.vigil.observe.capture.Role;
import dev.vigil.observe.capture.Site;
import dev.vigil.observe.capture.Snapshot;
import dev.vigil.observe.capture.ValueCapture;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A snapshot written token by token gives the very bytes its tree gives the old way. */
class SnapshotValuesTest {
  private static final Site SITE =
      new Site(1, Role.TOOL, "demo.Tools", "look", List.of("q"), "look", "tool.look");

  /** A bean, as tools return them: its fields are read, not its getters. */
  @SuppressWarnings("UnusedVariable") // read by Vigil's mapper, which reads fields
  static final class Stay {
    private final String city;
    private final int nights;
    private final List<Object> extras;
    private final Map<String, Object> more;

    Stay(String city, int nights, List<Object> extras, Map<String, Object> more) {
      this.city = city;
      this.nights = nights;
      this.extras = extras;
      this.more = more;
    }
  }

  private static Object randomValue(SplittableRandom r, int depth) {
    int kind = r.nextInt(depth > 3 ? 9 : 12);
    return switch (kind) {
      case 0 -> Samples.word(r);
      case 1 -> r.nextInt();
      case 2 -> r.nextLong();
      case 3 -> r.nextDouble() * 1e6;
      case 4 -> (float) r.nextDouble();
      case 5 -> r.nextBoolean();
      case 6 -> null;
      case 7 -> new BigDecimal(BigInteger.valueOf(r.nextLong()), r.nextInt(-3, 8));
      case 8 -> BigInteger.valueOf(r.nextLong()).multiply(BigInteger.TEN.pow(20));
      case 9 -> randomList(r, depth + 1);
      case 10 -> randomMap(r, depth + 1);
      default ->
          new Stay(
              Samples.word(r), r.nextInt(30), randomList(r, depth + 1), randomMap(r, depth + 1));
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
    Map<String, Object> map = new LinkedHashMap<>();
    for (int i = r.nextInt(4); i > 0; i--) {
      map.put(Samples.name(r), randomValue(r, depth));
    }
    return map;
  }

  @Test
  void anySnapshotIsWrittenAsItsTreeWouldBe() {
    SplittableRandom r = new SplittableRandom(29);
    ValueCapture capture = new ValueCapture();
    ValueWriter[] writers = new ValueWriter[Samples.LIMITS.length];
    SnapshotValues[] streams = new SnapshotValues[Samples.LIMITS.length];
    Redaction redaction =
        AgentConfig.load(null, new Properties(), Map.of(), line -> {}).redaction();
    for (int at = 0; at < Samples.LIMITS.length; at++) {
      writers[at] = Encoded.writer(Samples.LIMITS[at]);
      streams[at] = new SnapshotValues(redaction, Samples.LIMITS[at]);
    }
    int streamed = 0;
    int cut = 0;
    for (int i = 0; i < 5_000; i++) {
      Object value = r.nextBoolean() ? randomMap(r, 0) : randomValue(r, 2);
      Object captured = capture.tree(value, SITE, -1); // Jackson's way, copied or not
      if (!(captured instanceof Snapshot snapshot)) {
        continue;
      }
      for (int at = 0; at < Samples.LIMITS.length; at++) {
        SmileOut fast = new SmileOut();
        writers[at].write(snapshot, false, SITE, -1, fast);
        SmileOut tree = new SmileOut();
        writers[at].write(snapshot.tree(), false, SITE, -1, tree);
        assertArrayEquals(tree.toByteArray(), fast.toByteArray(), snapshot::toString);
        SmileOut alone = new SmileOut();
        if (streams[at].write(snapshot, alone)) {
          streamed++;
        } else {
          cut++;
          assertEquals(0, alone.length(), "nothing is left behind when the tree's way is taken");
        }
      }
    }
    assertTrue(streamed > 1_000, "most snapshots are written token by token: " + streamed);
    assertTrue(cut > 100, "the size limit sends some the tree's way: " + cut);
  }

  @Test
  void secretNamesAndPatternsAreMaskedInABean() {
    Map<String, Object> more = new LinkedHashMap<>();
    more.put("password", Map.of("old", "hunter2"));
    more.put("note", "key sk-abcdefghijklmnopqrstu here");
    Object captured =
        new ValueCapture().tree(new Stay("Oslo", 2, List.of(1.5, "x"), more), SITE, -1);
    assertInstanceOf(Snapshot.class, captured);
    assertEquals(
        "{\"city\":\"Oslo\",\"nights\":2,\"extras\":[1.5,\"x\"],"
            + "\"more\":{\"password\":\"***\",\"note\":\"key *** here\"}}",
        Encoded.value(Encoded.writer(4096), captured, false, SITE, -1).toString());
  }
}
