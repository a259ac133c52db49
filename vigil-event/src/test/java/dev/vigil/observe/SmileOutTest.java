package dev.vigil.observe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.util.List;
import org.junit.jupiter.api.Test;

/** Whatever SmileOut writes, Jackson's Smile parser reads back as the same tree. */
class SmileOutTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final ObjectMapper SMILE =
      new ObjectMapper(
          SmileFactory.builder()
              .disable(SmileGenerator.Feature.WRITE_HEADER)
              .disable(SmileGenerator.Feature.CHECK_SHARED_NAMES)
              .disable(SmileParser.Feature.REQUIRE_HEADER)
              .build());

  private static JsonNode roundTrip(JsonNode tree) throws Exception {
    SmileOut out = new SmileOut();
    out.tree(tree);
    return SMILE.readTree(out.toByteArray());
  }

  @Test
  void randomPayloadsReadBackAsTheSameTree() throws Exception {
    RandomEvents random = new RandomEvents(11, 50);
    SmileOut out = new SmileOut();
    for (int i = 0; i < 3_000; i++) {
      ObjectNode payload = random.next().payload();
      out.reset();
      out.tree(payload);
      JsonNode back = SMILE.readTree(out.toByteArray());
      assertEquals(payload, back, "payload " + i);
      assertEquals(
          EventJson.write(Event.of(java.time.Instant.EPOCH, "k", "ok", payload)),
          EventJson.write(Event.of(java.time.Instant.EPOCH, "k", "ok", (ObjectNode) back)));
    }
  }

  @Test
  void everyStringAndNameLengthAroundTheTokenLimits() throws Exception {
    for (String unit : new String[] {"a", "é", "€", "\uD83D\uDE00"}) {
      for (int n = 0; n <= 70; n++) {
        String s = unit.repeat(n);
        ObjectNode o = NODES.objectNode();
        o.put(s, s);
        o.put("x" + s, "y" + s);
        assertEquals(o, roundTrip(o), unit + " x " + n);
      }
    }
    assertEquals(NODES.textNode("x".repeat(5_000)), roundTrip(NODES.textNode("x".repeat(5_000))));
  }

  @Test
  void anAsciiStringIsWrittenAsStringWritesItAndAnythingElseLeavesNothing() {
    for (int n = 0; n <= 70; n++) {
      String s = "a".repeat(n);
      SmileOut fused = new SmileOut();
      assertTrue(fused.asciiString(s, (str, ascii, from) -> false));
      SmileOut plain = new SmileOut();
      plain.string(s);
      assertArrayEquals(plain.toByteArray(), fused.toByteArray(), "length " + n);
    }
    SmileOut out = new SmileOut();
    out.startObject();
    int before = out.length();
    assertFalse(out.asciiString("caf\u00e9", (str, ascii, from) -> false));
    // characters beyond Latin-1 whose low byte is ASCII, a lone surrogate, DEL's neighbour
    for (String s : List.of("\u0141", "a\u4e41b", "\ud800", "x\u0080")) {
      assertFalse(out.asciiString(s, (str, ascii, from) -> false), s);
    }
    assertFalse(out.asciiString("stop here", (str, ascii, from) -> ascii[from + 4] == ' '));
    assertEquals(before, out.length());
    SmileOut seen = new SmileOut();
    assertTrue(
        seen.asciiString(
            "seen as bytes \u007f",
            (str, ascii, from) -> {
              for (int i = 0; i < str.length(); i++) {
                assertEquals(str.charAt(i), ascii[from + i]);
              }
              return false;
            }));
  }

  @Test
  // -3.25e10f is the float 32500000768, which JDK 17's Float.toString writes 3.25000008E10
  @SuppressWarnings("FloatingPointLiteralPrecision")
  void numbersKeepTheirType() throws Exception {
    ArrayNode a = NODES.arrayNode();
    for (int v :
        new int[] {
          0,
          1,
          -1,
          15,
          -16,
          16,
          -17,
          63,
          64,
          8191,
          8192,
          -8193,
          Integer.MAX_VALUE,
          Integer.MIN_VALUE
        }) {
      a.add(v);
    }
    for (long v :
        new long[] {1L << 31, -(1L << 31) - 1, Long.MAX_VALUE, Long.MIN_VALUE, 1L << 40}) {
      a.add(v);
    }
    for (double v :
        new double[] {
          0.0, -0.0, 1.84, -1e300, Double.MIN_VALUE, Double.NaN, Double.POSITIVE_INFINITY
        }) {
      a.add(v);
    }
    for (float v : new float[] {0f, 1.5f, -3.25e10f, Float.MAX_VALUE, Float.NaN}) {
      a.add(v);
    }
    a.add(new BigInteger("-123456789012345678901234567890"));
    a.add(new BigDecimal("12345678901234567890.123456789"));
    a.add(new byte[] {1, 2, 3, -1, 0, 127});
    assertEquals(a, roundTrip(a));
  }

  @Test
  void aLongThatFitsAnIntIsAnIntAsJacksonWritesIt() throws Exception {
    SmileOut out = new SmileOut();
    out.number(5L);
    assertArrayEquals(SMILE.writeValueAsBytes(NODES.numberNode(5L)), out.toByteArray());
    assertEquals(NODES.numberNode(5), SMILE.readTree(out.toByteArray()));
  }

  @Test
  void writesTheBytesJacksonWritesWithoutSharedNames() throws Exception {
    RandomEvents random = new RandomEvents(5, 0, false);
    SmileOut out = new SmileOut();
    for (int i = 0; i < 500; i++) {
      ObjectNode payload = random.next().payload();
      out.reset();
      out.tree(payload);
      assertArrayEquals(
          SMILE.writeValueAsBytes(payload), out.toByteArray(), "payload " + i + ": " + payload);
    }
  }

  @Test
  void aLoneSurrogateBecomesTheReplacementCharacter() throws Exception {
    ObjectNode o = NODES.objectNode();
    o.put("k\uD800", "a\uDC00b\uD83D");
    ObjectNode expected = NODES.objectNode();
    expected.put("k\uFFFD", "a\uFFFDb\uFFFD");
    assertEquals(expected, roundTrip(o));
  }

  @Test
  void aRememberedValueIsWrittenAgainByIdentityOnly() throws Exception {
    SmileOut out = new SmileOut();
    String a = "weather in Paris";
    String sameText = new String(a.toCharArray());
    assertFalse(out.repeat(a), "nothing remembered yet");
    out.startArray();
    int mark = out.mark();
    out.string(a);
    out.remember(a, mark);
    assertTrue(out.repeat(a));
    assertFalse(out.repeat(sameText), "an equal string that is another object is not taken for it");
    out.string(sameText);
    for (int i = 0; i < 6; i++) { // more values than are kept: the oldest make room
      String s = "value " + i;
      int m = out.mark();
      out.string(s);
      out.remember(s, m);
    }
    assertFalse(out.repeat(a), "pushed out by newer values");
    String big = "x".repeat(500);
    int m = out.mark();
    out.string(big);
    out.remember(big, m);
    assertFalse(out.repeat(big), "a long value is not kept");
    out.endArray();
    ArrayNode expected = NODES.arrayNode().add(a).add(a).add(a);
    for (int i = 0; i < 6; i++) {
      expected.add("value " + i);
    }
    expected.add(big);
    assertEquals(expected, SMILE.readTree(out.toByteArray()));
  }
}
