package dev.vigil.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link HeaderScan}, the fast path of {@link EventJson#readHeader}: it answers for the lines an
 * agent writes, and whenever it answers, Jackson's reading of the same line ({@link
 * EventJson#parseHeader}) gives the same header.
 */
class HeaderScanTest {
  private static final ZoneId ZONE = ZoneId.of("Europe/Paris");

  private static final String EXAMPLE =
      "{\"ts\":\"2026-11-22T10:15:30.123456Z\",\"kind\":\"tool.set_reminder\",\"status\":\"ok\","
          + "\"payload\":{\"tool\":\"setReminder\",\"args\":{\"when\":\"in 30 minutes\",\"task\":\"tea\"},"
          + "\"result\":\"Reminder set\",\"duration_ms\":1.84,\"class\":\"demo.robin.RobinTools\","
          + "\"method\":\"setReminder\"},\"agent\":\"robin\",\"seq\":17,\"pid\":4242,\"thread\":\"main\","
          + "\"turn\":\"9f2c\",\"call_id\":\"call_3\",\"session\":\"user-42\"}";

  private static final String FAILURE =
      "{\"ts\":\"2026-11-22 10:15:30\",\"kind\":\"tool.book_hotel\",\"status\":\"fail\","
          + "\"payload\":{\"args\":{\"city\":\"Lyon\",\"nights\":-2,\"ratio\":-0.5e-3,\"ok\":true,"
          + "\"none\":null,\"no\":false,\"list\":[],\"map\":{}},\"error\":{\"type\":\"java.lang.X\","
          + "\"message\":\"said \\\"no\\\" \\\\ \\/ \\b\\f\\n\\r\\t \\u00e9\\uD83D\\uDE00\","
          + "\"frames\":[\"a.B.c(B.java:1)\",[1,[2,[3]]]]}},\"agent\":null,\"seq\":-0,\"pid\":0}";

  @ParameterizedTest
  @ValueSource(
      strings = {
        EXAMPLE,
        FAILURE,
        // whitespace between every token, as JSON allows it
        " { \"ts\" : \"2025-10-31T23:59:59Z\" ,\t\"kind\" :\"k\", \"status\": \"s\" ,"
            + " \"payload\" : { \"a\" : [ 1 , 2 ] } } \t",
        // the paper's format: the required fields alone
        "{\"ts\":\"2025-10-31T23:59:59+02:00\",\"kind\":\"k\",\"status\":\"s\",\"payload\":{}}",
        // text beyond ASCII in the payload, and in a name within it
        "{\"ts\":\"2025-10-31T23:59:59Z\",\"kind\":\"k\",\"status\":\"s\",\"payload\":"
            + "{\"caf\u00e9\":\"\u65e5\u672c \ud83d\ude00 \u00e9t\u00e9\"},\"agent\":\"a\"}",
        // a field given twice: the last one counts, as for the parser
        "{\"ts\":\"2020-01-01T00:00:00Z\",\"ts\":\"2021-01-01T00:00:00Z\",\"kind\":\"k\","
            + "\"status\":\"s\",\"payload\":{},\"agent\":\"first\",\"agent\":\"second\"}",
        // unknown top-level fields of every type
        "{\"x\":[{\"y\":[null,true,false,1e5,-1.5E+2]}],\"z\":\"\\u0000\",\"kind\":\"k\","
            + "\"ts\":\"2025-10-31T23:59:59.123Z\",\"status\":\"s\",\"payload\":{},\"n\":123456789012345678901234}",
        // the longest seq and pid that fit a long, and nulls where the parser takes them
        "{\"ts\":\"2025-10-31T23:59:59Z\",\"kind\":\"k\",\"status\":\"s\",\"payload\":{},"
            + "\"seq\":999999999999999999,\"pid\":null,\"thread\":null,\"turn\":null,\"call_id\":null,"
            + "\"session\":null}"
      })
  void answersForValidLinesWithTheParsersHeader(String line) throws Exception {
    byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
    EventJson.Header fast = HeaderScan.read(bytes, 0, bytes.length, ZONE);
    assertNotNull(fast, "the fast path left a valid line to the parser: " + line);
    assertEquals(EventJson.parseHeader(bytes, 0, bytes.length, ZONE), fast);
  }

  @Test
  void takesTheHeaderFromThePartOfTheBufferItIsGiven() throws Exception {
    byte[] bytes = ("xx" + EXAMPLE + "\r\nyy").getBytes(StandardCharsets.UTF_8);
    EventJson.Header h = HeaderScan.read(bytes, 2, EXAMPLE.length(), ZONE);
    assertEquals(
        new EventJson.Header(Instant.parse("2026-11-22T10:15:30.123456Z"), "robin", false), h);
    assertSame(EventJson.parseHeader(bytes, 2, EXAMPLE.length(), ZONE).agent(), h.agent());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        // defects, which the parser names
        "",
        "[]",
        "{\"ts\":\"2025-10-31T23:59:59Z\",\"kind\":\"k\",\"status\":\"s\"}",
        "{\"ts\":\"yesterday\",\"kind\":\"k\",\"status\":\"s\",\"payload\":{}}",
        "{\"ts\":\"2025-10-31T23:59:59Z\",\"kind\":7,\"status\":\"s\",\"payload\":{}}",
        "{\"ts\":\"2025-10-31T23:59:59Z\",\"kind\":\"k\",\"status\":\"s\",\"payload\":[]}",
        "{\"ts\":\"2025-10-31T23:59:59Z\",\"kind\":\"k\",\"status\":\"s\",\"payload\":{},\"seq\":1.0}",
        "{\"ts\":\"2025-10-31T23:59:59Z\",\"kind\":\"k\",\"status\":\"s\",\"payload\":{},\"seq\":01}",
        "{\"ts\":\"2025-10-31T23:59:59Z\",\"kind\":\"k\",\"status\":\"s\",\"payload\":{\"a\":1,}}",
        "{\"ts\":\"2025-10-31T23:59:59Z\",\"kind\":\"k\",\"status\":\"s\",\"payload\":{}} {}",
        "{\"ts\":\"2025-10-31T23:59:59Z\",\"kind\":\"k\",\"status\":\"s\",\"payload\":{\"a\":\"\\x\"}}",
        "{\"ts\":\"2025-10-31T23:59:59Z\",\"kind\":\"k\",\"status\":\"s\",\"payload\":{\"a\":NaN}}",
        // valid, but what the fast path does not decode: the parser reads these
        "{\"ts\":\"2025-10-31T23:59:59\\u005a\",\"kind\":\"k\",\"status\":\"s\",\"payload\":{}}",
        "{\"t\\u0073\":\"2025-10-31T23:59:59Z\",\"kind\":\"k\",\"status\":\"s\",\"payload\":{}}",
        "{\"ts\":\"2025-10-31T23:59:59Z\",\"kind\":\"k\",\"status\":\"s\",\"payload\":{},"
            + "\"agent\":\"caf\u00e9\"}",
        "\ufeff{\"ts\":\"2025-10-31T23:59:59Z\",\"kind\":\"k\",\"status\":\"s\",\"payload\":{}}",
        "{\"ts\":\"2025-10-31T23:59:59Z\",\"kind\":\"k\",\"status\":\"s\",\"payload\":{},"
            + "\"seq\":1234567890123456789}"
      })
  void leavesDefectsAndWhatItDoesNotDecodeToTheParser(String line) {
    byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
    assertNull(HeaderScan.read(bytes, 0, bytes.length, ZONE), line);
  }

  @Test
  void leavesNestingDeeperThanItsLimitToTheParser() throws Exception {
    String deep = "[".repeat(70) + "]".repeat(70);
    byte[] bytes =
        ("{\"ts\":\"2025-10-31T23:59:59Z\",\"kind\":\"k\",\"status\":\"s\",\"payload\":{\"d\":"
                + deep
                + "}}")
            .getBytes(StandardCharsets.UTF_8);
    assertNull(HeaderScan.read(bytes, 0, bytes.length, ZONE));
    assertNotNull(EventJson.readHeader(bytes, 0, bytes.length, ZONE));
  }

  @Test
  void whereverALineIsCutOrABytePutInItAnswersAsTheParserDoes() {
    byte[] special = {
      '"',
      '\\',
      '{',
      '}',
      '[',
      ']',
      ',',
      ':',
      ' ',
      '0',
      '1',
      '-',
      '+',
      '.',
      'e',
      'n',
      't',
      'u',
      'x',
      0,
      0x0B,
      0x7F,
      (byte) 0xC3,
      (byte) 0xA9,
      (byte) 0xED,
      (byte) 0xFF
    };
    int answered = 0;
    for (String seed : List.of(EXAMPLE, FAILURE)) {
      byte[] line = seed.getBytes(StandardCharsets.UTF_8);
      for (byte[] variant : variants(line, special)) {
        if (sameAsParser(variant)) {
          answered++;
        }
      }
    }
    // a mutation sweep where the fast path never answered would prove nothing
    assertTrue(answered > 1000, "the fast path answered " + answered + " variants");
  }

  /** Every line with one byte removed, and with one byte replaced by or inserted before each. */
  private static List<byte[]> variants(byte[] line, byte[] special) {
    List<byte[]> out = new ArrayList<>();
    for (int i = 0; i < line.length; i++) {
      byte[] cut = new byte[line.length - 1];
      System.arraycopy(line, 0, cut, 0, i);
      System.arraycopy(line, i + 1, cut, i, line.length - i - 1);
      out.add(cut);
      for (byte s : special) {
        byte[] put = line.clone();
        put[i] = s;
        out.add(put);
        byte[] in = new byte[line.length + 1];
        System.arraycopy(line, 0, in, 0, i);
        in[i] = s;
        System.arraycopy(line, i, in, i + 1, line.length - i);
        out.add(in);
      }
    }
    return out;
  }

  /**
   * Checks one line: when the fast path answers, the parser takes the line with the same header.
   * Returns whether it answered.
   */
  static boolean sameAsParser(byte[] line) {
    EventJson.Header fast = HeaderScan.read(line, 0, line.length, ZONE);
    if (fast == null) {
      return false;
    }
    EventJson.Header parsed;
    try {
      parsed = EventJson.parseHeader(line, 0, line.length, ZONE);
    } catch (EventFormatException e) {
      throw new AssertionError(
          "the fast path took a line the parser refuses ("
              + e.getMessage()
              + "): "
              + new String(line, StandardCharsets.ISO_8859_1),
          e);
    }
    assertEquals(parsed, fast, new String(line, StandardCharsets.ISO_8859_1));
    return true;
  }
}
