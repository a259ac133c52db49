package dev.vigil.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.smile.SmileFactory;
import com.fasterxml.jackson.dataformat.smile.SmileGenerator;
import com.fasterxml.jackson.dataformat.smile.SmileParser;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link PayloadTree} builds what the default mapper's {@code readTree} builds from the same text,
 * node type for node type and in the same order, and refuses what it refuses: random objects of
 * every kind of value (integers at the edges of int and long, big ones, decimals with exponents,
 * repeated names, nesting, escapes), then every truncation and random damage of them; and Smile
 * values of every kind, 32-bit floats, big decimals and bytes among them, as the queue's reader
 * reads a tool call's values.
 */
class PayloadTreeTest {
  private static final ObjectMapper MAPPER = EventJson.mapper();

  private static final String[] NUMBERS = {
    "0",
    "-0",
    "2147483647",
    "2147483648",
    "-2147483648",
    "-2147483649",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775809",
    "123456789012345678901234567890",
    "1.5",
    "-0.0",
    "1e3",
    "1E-7",
    "2.5e+300",
    "1e400",
    "0.1",
    "123.456e-5"
  };

  /** Characters put in place of one of an object's. */
  private static final String DAMAGE = "}]\",:{[x1-e.";

  @Test
  void randomObjectsGiveTheTreesReadTreeGives() throws Exception {
    Random random = new Random(3);
    for (int i = 0; i < 20_000; i++) {
      String json = object(random, 0);
      assertSame(json, read(json), readTree(json));
    }
  }

  @Test
  void damagedObjectsAreRefusedAsReadTreeRefusesThem() throws Exception {
    Random random = new Random(5);
    for (int i = 0; i < 3_000; i++) {
      String json = object(random, 0);
      String damaged =
          switch (random.nextInt(3)) {
            case 0 -> json.substring(0, random.nextInt(json.length()));
            case 1 -> {
              int at = random.nextInt(json.length());
              yield json.substring(0, at)
                  + DAMAGE.charAt(random.nextInt(DAMAGE.length()))
                  + json.substring(at + 1);
            }
            default -> {
              int at = random.nextInt(json.length());
              yield json.substring(0, at) + json.substring(at + 1);
            }
          };
      assertSame(damaged, read(damaged), readTree(damaged));
    }
  }

  @Test
  void smileValuesGiveTheTreesReadTreeGives() throws Exception {
    ObjectMapper smile =
        new ObjectMapper(
            SmileFactory.builder()
                .disable(SmileGenerator.Feature.WRITE_HEADER)
                .disable(SmileParser.Feature.REQUIRE_HEADER)
                .build());
    Random random = new Random(9);
    for (int i = 0; i < 10_000; i++) {
      JsonNode written = smileValue(random, 0);
      byte[] bytes = smile.writeValueAsBytes(written);
      Object expected;
      try (JsonParser p = smile.getFactory().createParser(bytes)) {
        p.nextToken();
        expected = smile.readTree(p);
      }
      Object actual;
      try (JsonParser p = smile.getFactory().createParser(bytes)) {
        p.nextToken();
        actual = PayloadTree.value(p, smile);
        assertEquals(null, p.nextToken(), "the value read to its end: " + written);
      }
      assertSame(written.toString(), actual, expected);
    }
  }

  /** A value of every kind Smile writes: floats of 32 bits, big decimals and bytes among them. */
  private static JsonNode smileValue(Random r, int depth) {
    JsonNodeFactory nodes = JsonNodeFactory.instance;
    return switch (r.nextInt(depth > 3 ? 9 : 11)) {
      case 0 -> nodes.numberNode(r.nextInt());
      case 1 -> nodes.numberNode(r.nextLong());
      case 2 -> nodes.numberNode(new BigInteger(80, r));
      case 3 -> nodes.numberNode(r.nextDouble() * 1e6);
      case 4 -> nodes.numberNode(r.nextFloat());
      case 5 -> nodes.numberNode(new BigDecimal(BigInteger.valueOf(r.nextLong()), r.nextInt(20)));
      case 6 -> nodes.binaryNode(new byte[] {(byte) r.nextInt(), 0, (byte) 0xff});
      case 7 -> r.nextBoolean() ? nodes.textNode("s\u00e9" + r.nextInt(50)) : nodes.nullNode();
      case 8 -> nodes.booleanNode(r.nextBoolean());
      case 9 -> {
        ObjectNode o = nodes.objectNode();
        for (int k = r.nextInt(4); k > 0; k--) {
          o.set("k" + r.nextInt(3), smileValue(r, depth + 1));
        }
        yield o;
      }
      default -> {
        ArrayNode a = nodes.arrayNode();
        for (int k = r.nextInt(4); k > 0; k--) {
          a.add(smileValue(r, depth + 1));
        }
        yield a;
      }
    };
  }

  private static void assertSame(String json, Object actual, Object expected) throws Exception {
    if (expected instanceof JsonProcessingException) {
      assertInstanceOf(JsonProcessingException.class, actual, json);
      return;
    }
    if (expected instanceof Exception e) {
      // the test's own refusals: not an object, or text after it
      assertEquals(e.toString(), String.valueOf(actual), json);
      return;
    }
    assertInstanceOf(JsonNode.class, actual, json);
    assertEquals(expected, actual, json);
    assertEquals(
        MAPPER.writeValueAsString(expected), MAPPER.writeValueAsString(actual), "order: " + json);
    assertEquals(types((JsonNode) expected), types((JsonNode) actual), "types: " + json);
  }

  /** The node classes of a tree, depth first: equals alone does not tell an int from a long. */
  private static String types(JsonNode node) {
    StringBuilder sb = new StringBuilder(node.getClass().getSimpleName());
    for (JsonNode child : node) {
      sb.append('(').append(types(child)).append(')');
    }
    return sb.toString();
  }

  /** The tree PayloadTree builds, or what was thrown. */
  private static Object read(String json) {
    try (JsonParser p = MAPPER.getFactory().createParser(json.getBytes(StandardCharsets.UTF_8))) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return new IllegalArgumentException("not an object");
      }
      JsonNode tree = PayloadTree.object(p, MAPPER);
      return p.nextToken() == null ? tree : new IllegalArgumentException("text after");
    } catch (Exception e) {
      return e;
    }
  }

  /** The tree readTree builds, or what was thrown. */
  private static Object readTree(String json) {
    try (JsonParser p = MAPPER.getFactory().createParser(json.getBytes(StandardCharsets.UTF_8))) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return new IllegalArgumentException("not an object");
      }
      JsonNode tree = MAPPER.readTree(p);
      return p.nextToken() == null ? tree : new IllegalArgumentException("text after");
    } catch (Exception e) {
      return e;
    }
  }

  private static String object(Random r, int depth) {
    StringBuilder sb = new StringBuilder("{");
    int n = r.nextInt(depth > 3 ? 3 : 6);
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        sb.append(r.nextBoolean() ? "," : " ,\n ");
      }
      // few names, so that some repeat
      sb.append('"').append((char) ('a' + r.nextInt(4))).append("\":").append(value(r, depth));
    }
    return sb.append('}').toString();
  }

  private static String value(Random r, int depth) {
    return switch (r.nextInt(depth > 3 ? 6 : 8)) {
      case 0 -> NUMBERS[r.nextInt(NUMBERS.length)];
      case 1 -> Long.toString(r.nextLong() >> r.nextInt(64));
      case 2 -> "\"s\\u00e9\\n\\\"" + r.nextInt(100) + "\u20ac\"";
      case 3 -> r.nextBoolean() ? "true" : "false";
      case 4 -> "null";
      case 5 -> Double.toString((r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(40) - 20));
      case 6 -> object(r, depth + 1);
      default -> {
        StringBuilder sb = new StringBuilder("[");
        for (int i = r.nextInt(4); i > 0; i--) {
          sb.append(value(r, depth + 1)).append(i > 1 ? "," : "");
        }
        yield sb.append(']').toString();
      }
    };
  }
}
