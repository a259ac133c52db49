package dev.vigil.observe;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Generates random events for round-trip tests: unicode (including supplementary code points and
 * control characters), nested payloads, nulls, every JSON number type, empty payloads and, now and
 * then, 1 MB values.
 */
public final class RandomEvents {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String[] STATUSES = {
    "ok", "fail", "timeout", "delay", "complaint", "delivered", "ünïcödé"
  };

  private final SplittableRandom random;
  private final int bigEvery;
  private final boolean bigDecimals;

  /**
   * @param seed the random seed, so a failure can be replayed
   * @param bigEvery every this many events one carries a 1 MB string (0: never)
   */
  public RandomEvents(long seed, int bigEvery) {
    this(seed, bigEvery, true);
  }

  /**
   * @param bigDecimals whether payloads may hold decimals with more digits than a double keeps
   *     (JSON text reads decimals as doubles, so tests that re-read JSON turn them off)
   */
  public RandomEvents(long seed, int bigEvery, boolean bigDecimals) {
    this.random = new SplittableRandom(seed);
    this.bigEvery = bigEvery;
    this.bigDecimals = bigDecimals;
  }

  private int count;

  /** The next {@code n} random events. */
  public List<Event> next(int n) {
    List<Event> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(next());
    }
    return out;
  }

  /** The next random event. */
  public Event next() {
    count++;
    Instant ts =
        Instant.ofEpochSecond(
            1_700_000_000L + random.nextLong(200_000_000L),
            random.nextBoolean()
                ? random.nextInt(1_000_000) * 1000
                : random.nextInt(1_000_000_000));
    ObjectNode payload = random.nextInt(10) == 0 ? NODES.objectNode() : object(3);
    if (bigEvery > 0 && count % bigEvery == 0) {
      payload.put("big", text(1_000_000, false));
    }
    return new Event(
        ts,
        "tool." + text(1 + random.nextInt(12), true),
        STATUSES[random.nextInt(STATUSES.length)],
        payload,
        maybe(text(1 + random.nextInt(10), false)),
        random.nextBoolean() ? random.nextLong(Long.MAX_VALUE) : null,
        random.nextBoolean() ? (long) random.nextInt(4_000_000) : null,
        maybe(text(random.nextInt(20), false)),
        maybe(text(random.nextInt(36), false)),
        maybe(text(random.nextInt(12), false)),
        maybe(text(random.nextInt(24), false)));
  }

  private String maybe(String s) {
    return random.nextInt(4) == 0 ? null : s;
  }

  private ObjectNode object(int depth) {
    ObjectNode o = NODES.objectNode();
    int fields = random.nextInt(6);
    for (int i = 0; i < fields; i++) {
      o.set(text(1 + random.nextInt(8), false), value(depth - 1));
    }
    return o;
  }

  private com.fasterxml.jackson.databind.JsonNode value(int depth) {
    int pick = random.nextInt(depth > 0 ? 11 : 9);
    return switch (pick) {
      case 0 -> NODES.nullNode();
      case 1 -> NODES.booleanNode(random.nextBoolean());
      case 2 -> NODES.numberNode(random.nextInt());
      case 3 -> NODES.numberNode(random.nextLong());
      case 4 -> NODES.numberNode(random.nextDouble() * 1e6 - 5e5);
      case 5 -> NODES.numberNode(new BigInteger(100, new java.util.Random(random.nextLong())));
      case 6 ->
          bigDecimals
              ? NODES.numberNode(new BigDecimal("12345678901234567890.123456789"))
              : NODES.numberNode(0.125);
      case 7, 8 -> NODES.textNode(text(random.nextInt(40), false));
      case 9 -> object(depth);
      default -> {
        ArrayNode a = NODES.arrayNode();
        int n = random.nextInt(5);
        for (int i = 0; i < n; i++) {
          a.add(value(depth - 1));
        }
        yield a;
      }
    };
  }

  /**
   * A random string of {@code length} code points; ASCII lower-case letters only when {@code
   * plain}.
   */
  private String text(int length, boolean plain) {
    StringBuilder sb = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      if (plain) {
        sb.append((char) ('a' + random.nextInt(26)));
        continue;
      }
      int kind = random.nextInt(10);
      int cp;
      if (kind < 5) {
        cp = 0x20 + random.nextInt(0x5f);
      } else if (kind < 6) {
        cp = random.nextInt(0x20);
      } else if (kind < 8) {
        cp = 0xa0 + random.nextInt(0xd7ff - 0xa0);
      } else if (kind < 9) {
        cp = 0xe000 + random.nextInt(0xfffd - 0xe000);
      } else {
        cp = 0x10000 + random.nextInt(0x10ffff - 0x10000);
      }
      sb.appendCodePoint(cp);
    }
    return sb.toString();
  }
}
