package dev.vigil.observe;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link SmileScan} against Jackson's parser: whatever it is sure of, the parser reads without
 * error and into the same tree (node classes and names' order included), for payloads written by
 * Jackson (names shared) and by {@link SmileOut}, whole and damaged (bytes changed, cut, put in),
 * and it is sure of most payloads in ASCII.
 */
class SmileScanTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final String[] NAMES = {"id", "order_id", "status", "text", "items", "", "n"};

  @Test
  void whatItIsSureOfIsAnObjectTheParserReadsWhole() {
    SplittableRandom random = new SplittableRandom(43);
    int whole = 0;
    int sureOfWhole = 0;
    for (int n = 0; n < 6_000; n++) {
      ObjectNode tree = object(random, 3);
      byte[] payload = random.nextBoolean() ? EventWire.payloadBytes(tree) : smileOut(tree);
      whole++;
      sureOfWhole += SmileScan.isObject(payload) ? 1 : 0;
      holdsToTheParser(payload);
      for (int m = 0; m < 8; m++) {
        holdsToTheParser(damaged(random, payload));
      }
    }
    assertTrue(sureOfWhole > whole * 0.6, "sure of " + sureOfWhole + " of " + whole);
  }

  @Test
  void whatItIsSureOfIsAToolCallTheCheckPasses() {
    SplittableRandom random = new SplittableRandom(47);
    int whole = 0;
    int sureOfWhole = 0;
    for (int n = 0; n < 6_000; n++) {
      ObjectNode call = NODES.objectNode();
      if (random.nextBoolean()) {
        call.put("tool", random.nextInt(4) == 0 ? "other_tool" : "set_reminder");
      }
      if (random.nextBoolean()) {
        call.set("args", object(random, 2));
      }
      if (random.nextBoolean()) {
        call.set("result", value(random, 2));
      }
      call.put("duration_ms", random.nextInt(5) == 0 ? 1e15 : random.nextInt(100_000) / 1000.0);
      call.put("class", "demo.robin.RobinTools").put("method", "setReminder");
      if (random.nextInt(3) == 0) {
        call.set("error", object(random, 1));
      }
      int form = CallPayload.formOf(call);
      if (form < 0) {
        continue;
      }
      byte[] payload = CallPayload.bytes(call, form);
      for (boolean kindOfTool : new boolean[] {false, true}) {
        whole++;
        sureOfWhole += CallPayload.surelyValid(payload, kindOfTool) ? 1 : 0;
        checkHoldsToTheParser(payload, kindOfTool);
        for (int m = 0; m < 6; m++) {
          checkHoldsToTheParser(damaged(random, payload), kindOfTool);
        }
      }
    }
    assertTrue(sureOfWhole > whole * 0.4, "sure of " + sureOfWhole + " of " + whole);
  }

  private static byte[] smileOut(JsonNode tree) {
    SmileOut out = new SmileOut();
    out.tree(tree);
    return out.toByteArray();
  }

  private static void holdsToTheParser(byte[] payload) {
    ObjectNode tree = SmileScan.object(payload);
    assertEquals(SmileScan.isObject(payload), tree != null, () -> hex(payload));
    if (tree == null) {
      return;
    }
    try {
      assertTrue(EventWire.isObject(payload), () -> hex(payload));
      try (JsonParser p = EventWire.smileMapper().getFactory().createParser(payload)) {
        p.nextToken();
        ObjectNode parsed = PayloadTree.object(p, EventWire.smileMapper());
        sameTree(parsed, tree, payload);
      }
    } catch (IOException | RuntimeException e) {
      fail("sure of " + hex(payload) + ", which the parser refuses: " + e, e);
    }
  }

  /** Equal, node classes and names' order included. */
  private static void sameTree(JsonNode expected, JsonNode actual, byte[] payload) {
    assertEquals(expected, actual, () -> hex(payload));
    assertEquals(expected.toString(), actual.toString(), () -> hex(payload));
    assertEquals(expected.getClass(), actual.getClass(), () -> hex(payload));
    if (expected.isArray()) {
      for (int i = 0; i < expected.size(); i++) {
        sameTree(expected.get(i), actual.get(i), payload);
      }
    } else if (expected.isObject()) {
      for (Map.Entry<String, JsonNode> e : expected.properties()) {
        sameTree(e.getValue(), actual.get(e.getKey()), payload);
      }
    }
  }

  private static void checkHoldsToTheParser(byte[] payload, boolean kindOfTool) {
    if (CallPayload.surelyValid(payload, kindOfTool)) {
      assertDoesNotThrow(
          () -> CallPayload.check(payload, EventWire.smileMapper(), kindOfTool),
          () -> "sure of " + hex(payload) + ", kind of tool " + kindOfTool);
      int form = payload[0];
      int micros = CallPayload.durationAt(form);
      int count = CallPayload.valueCount(form);
      JsonNode[] trees = SmileScan.trees(payload, 1, count);
      JsonNode[] parsed =
          assertDoesNotThrow(() -> CallPayload.parsed(payload, form, EventWire.smileMapper()));
      for (int i = 0; i < count; i++) {
        if (i == micros) {
          assertEquals(parsed[i].longValue(), trees[i].longValue(), () -> hex(payload));
        } else {
          sameTree(parsed[i], trees[i], payload);
        }
      }
    }
  }

  /** A byte changed, the end cut off, or a byte put in. */
  private static byte[] damaged(SplittableRandom random, byte[] payload) {
    if (payload.length == 0) {
      return payload;
    }
    int at = random.nextInt(payload.length);
    return switch (random.nextInt(3)) {
      case 0 -> {
        byte[] b = payload.clone();
        b[at] = (byte) random.nextInt(256);
        yield b;
      }
      case 1 -> Arrays.copyOf(payload, at);
      default -> {
        byte[] b = new byte[payload.length + 1];
        System.arraycopy(payload, 0, b, 0, at);
        b[at] = (byte) random.nextInt(256);
        System.arraycopy(payload, at, b, at + 1, payload.length - at);
        yield b;
      }
    };
  }

  private static ObjectNode object(SplittableRandom random, int depth) {
    ObjectNode o = NODES.objectNode();
    for (int i = random.nextInt(5); i > 0; i--) {
      o.set(name(random), value(random, depth - 1));
    }
    return o;
  }

  private static String name(SplittableRandom random) {
    return random.nextInt(8) == 0
        ? "k" + random.nextInt(100) + "é".repeat(random.nextInt(2))
        : NAMES[random.nextInt(NAMES.length)];
  }

  private static JsonNode value(SplittableRandom random, int depth) {
    switch (random.nextInt(depth > 0 ? 11 : 9)) {
      case 0:
        return NODES.nullNode();
      case 1:
        return NODES.booleanNode(random.nextBoolean());
      case 2:
        return NODES.numberNode(random.nextInt(40) - 20);
      case 3:
        return NODES.numberNode(random.nextInt());
      case 4:
        return NODES.numberNode(random.nextLong());
      case 5:
        return NODES.numberNode(random.nextInt(1_000_000) / 7.0);
      case 6:
        return NODES.textNode(random.nextInt(10) == 0 ? "café ☕" : ascii(random, 70));
      case 7:
        return NODES.textNode(ascii(random, random.nextInt(4) == 0 ? 300 : 8));
      case 8:
        return NODES.textNode("");
      case 9:
        ArrayNode a = NODES.arrayNode();
        for (int i = random.nextInt(4); i > 0; i--) {
          a.add(value(random, depth - 1));
        }
        return a;
      default:
        return object(random, depth);
    }
  }

  private static String ascii(SplittableRandom random, int max) {
    StringBuilder s = new StringBuilder();
    for (int i = random.nextInt(max + 1); i > 0; i--) {
      s.append((char) (0x20 + random.nextInt(0x5F)));
    }
    return s.toString();
  }

  private static String hex(byte[] b) {
    return HexFormat.of().formatHex(b);
  }
}
