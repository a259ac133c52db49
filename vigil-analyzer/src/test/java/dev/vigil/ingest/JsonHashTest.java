package dev.vigil.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventJson;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link JsonHash} hashes exactly the bytes Jackson's mapper writes, so content identities do not
 * depend on which of the two wrote them: random trees of every node type a JSON reading builds,
 * strings of every kind of character (lone surrogates among them), the trees the event reader
 * itself builds from random JSON; and what it does not write (node types no reading builds) goes to
 * Jackson.
 */
class JsonHashTest {
  private static final long SEED = 0xcbf29ce484222325L;
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** Characters a string is drawn from, weighted to the ones with escapes and multi-byte forms. */
  private static final String SPECIAL =
      "\"\\/\b\t\n\f\r\u0000\u0001\u001f\u007f\u0080\u00e9\u07ff\u0800\u20ac\u2028\ufffd\uffff";

  @Test
  void randomTreesHashAsJacksonWritesThem() throws Exception {
    Random random = new Random(7);
    for (int i = 0; i < 20_000; i++) {
      JsonNode tree = tree(random, 0);
      assertEquals(
          EventIdentity.writtenByJackson(SEED, tree),
          JsonHash.hash(SEED, tree),
          () -> "tree " + tree);
    }
  }

  @Test
  void treesTheEventReaderBuildsHashAsJacksonWritesThem() throws Exception {
    Random random = new Random(11);
    for (int i = 0; i < 5_000; i++) {
      String json = EventJson.mapper().writeValueAsString(object(random, 0));
      String line =
          "{\"ts\":\"2026-11-28T01:00:00Z\",\"kind\":\"tool.x\",\"status\":\"ok\",\"payload\":"
              + json
              + "}";
      Event e = EventJson.read(line, java.time.ZoneOffset.UTC).event();
      assertEquals(
          EventIdentity.writtenByJackson(SEED, e.payload()),
          JsonHash.hash(SEED, e.payload()),
          () -> "payload " + json);
    }
  }

  @Test
  void everyCharOfTheBasicPlaneHashesAsJacksonWritesIt() throws Exception {
    for (int c = 0; c < 0x10000; c++) {
      JsonNode text = NODES.textNode("a" + (char) c + "b");
      int code = c;
      assertEquals(
          EventIdentity.writtenByJackson(SEED, text),
          JsonHash.hash(SEED, text),
          () -> "U+" + Integer.toHexString(code));
    }
  }

  @Test
  void whatItDoesNotWriteGoesToJackson() {
    ObjectNode decimal = NODES.objectNode().put("d", new BigDecimal("1.50"));
    ObjectNode floating = NODES.objectNode().put("f", 1.5f);
    ObjectNode nan = NODES.objectNode().put("n", Double.NaN);
    for (ObjectNode payload : new ObjectNode[] {decimal, floating, nan}) {
      assertThrows(JsonHash.NotWritten.class, () -> JsonHash.hash(SEED, payload));
      Event e = Event.of(Instant.EPOCH, "tool.x", "ok", payload);
      long jackson;
      try {
        jackson = EventIdentity.writtenByJackson(EventIdentity.envelope(e), e.payload());
      } catch (IllegalStateException refused) {
        assertThrows(IllegalStateException.class, () -> EventIdentity.ofContent(e));
        continue;
      }
      assertEquals(
          EventIdentity.finish(jackson), EventIdentity.ofContent(e), () -> "payload " + payload);
    }
  }

  private static JsonNode tree(Random r, int depth) {
    int pick = r.nextInt(depth > 3 ? 7 : 9);
    return switch (pick) {
      case 0 -> NODES.textNode(string(r));
      case 1 -> NODES.numberNode(r.nextInt());
      case 2 -> NODES.numberNode(r.nextLong());
      case 3 -> NODES.numberNode(new BigInteger(70 + r.nextInt(60), r));
      case 4 -> NODES.numberNode(number(r));
      case 5 -> NODES.booleanNode(r.nextBoolean());
      case 6 -> NODES.nullNode();
      case 7 -> object(r, depth + 1);
      default -> array(r, depth + 1);
    };
  }

  private static ObjectNode object(Random r, int depth) {
    ObjectNode o = NODES.objectNode();
    for (int i = r.nextInt(5); i > 0; i--) {
      o.set(string(r), tree(r, depth));
    }
    return o;
  }

  private static ArrayNode array(Random r, int depth) {
    ArrayNode a = NODES.arrayNode();
    for (int i = r.nextInt(5); i > 0; i--) {
      a.add(tree(r, depth));
    }
    return a;
  }

  private static double number(Random r) {
    return switch (r.nextInt(5)) {
      case 0 -> r.nextDouble();
      case 1 -> (r.nextInt(20_000) - 10_000) / 100.0;
      case 2 -> -0.0;
      case 3 -> Double.MIN_VALUE * r.nextInt(1000);
      default -> r.nextGaussian() * Math.pow(10, r.nextInt(617) - 308); // any exponent
    };
  }

  private static String string(Random r) {
    StringBuilder sb = new StringBuilder();
    for (int i = r.nextInt(12); i > 0; i--) {
      switch (r.nextInt(4)) {
        case 0 -> sb.append(SPECIAL.charAt(r.nextInt(SPECIAL.length())));
        case 1 -> sb.appendCodePoint(0x10000 + r.nextInt(0x100000)); // a surrogate pair
        case 2 -> sb.append((char) (0xD800 + r.nextInt(0x800))); // a lone half
        default -> sb.append((char) (' ' + r.nextInt(95)));
      }
    }
    return sb.toString();
  }
}
