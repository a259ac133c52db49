package dev.vigil.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link JsonlLines}: the newline search eight bytes at a time finds what a byte-by-byte search
 * finds, and the lines come out whole however the stream hands its bytes over.
 */
class JsonlLinesTest {
  /** Bytes that look like a newline to a wrong word test: 0x0A with other bits, and neighbours. */
  private static final byte[] ALPHABET = {
    '\n', '\n', (byte) 0x8A, 0x0B, 0x09, 0x00, (byte) 0xFF, (byte) 0x80, 0x1A, 0x4A, 'a', '{', '"'
  };

  private static int byteByByte(byte[] buf, int from, int to) {
    for (int i = from; i < to; i++) {
      if (buf[i] == '\n') {
        return i;
      }
    }
    return -1;
  }

  @Test
  void theWordSearchFindsTheFirstNewlineAsAByteSearchDoes() {
    SplittableRandom random = new SplittableRandom(29);
    int found = 0;
    for (int round = 0; round < 20_000; round++) {
      byte[] buf = new byte[random.nextInt(1, 80)];
      double newlines = random.nextDouble(0, 0.3); // some buffers have none
      for (int i = 0; i < buf.length; i++) {
        buf[i] =
            random.nextDouble() < newlines
                ? (byte) '\n'
                : ALPHABET[2 + random.nextInt(ALPHABET.length - 2)];
      }
      int from = random.nextInt(buf.length + 1);
      int to = random.nextInt(from, buf.length + 1);
      int expected = byteByByte(buf, from, to);
      assertEquals(
          expected,
          JsonlLines.newline(JsonlLines.wordsOf(buf), from, to),
          "buffer of round " + round);
      found += expected >= 0 ? 1 : 0;
    }
    assertTrue(found > 1_000 && found < 19_000, "both outcomes tried: " + found);
  }

  @Test
  void aNewlineIsFoundAtEveryPlaceOfAWord() {
    for (int at = 0; at < 24; at++) {
      byte[] buf = new byte[24];
      Arrays.fill(buf, (byte) 0x8A); // 0x0A with its high bit: not a newline
      buf[at] = '\n';
      assertEquals(at, JsonlLines.newline(JsonlLines.wordsOf(buf), 0, 24));
      assertEquals(at >= 3 ? at : -1, JsonlLines.newline(JsonlLines.wordsOf(buf), 3, 24));
      assertEquals(at < 21 ? at : -1, JsonlLines.newline(JsonlLines.wordsOf(buf), 0, 21));
    }
  }

  /** Hands over at most a few bytes a read, so that lines straddle every kind of boundary. */
  private static InputStream trickling(byte[] bytes, SplittableRandom random) {
    return new ByteArrayInputStream(bytes) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        return super.read(b, off, Math.min(len, random.nextInt(1, 12)));
      }
    };
  }

  /**
   * A line's number and text; a long text by its length and hash, so that a failure stays short.
   */
  private static String numbered(long lineNo, String text) {
    return lineNo
        + ":"
        + (text.length() <= 100 ? text : text.length() + " chars, hash " + text.hashCode());
  }

  private static List<String> lines(InputStream in) throws IOException {
    List<String> out = new ArrayList<>();
    JsonlLines.read(
        in,
        (buf, from, to, lineNo) ->
            out.add(numbered(lineNo, new String(buf, from, to - from, StandardCharsets.UTF_8))));
    return out;
  }

  @Test
  void linesComeOutWholeWithTheirNumbersHoweverTheBytesArrive() throws IOException {
    String longLine = "{\"x\":\"" + "y".repeat(70_000) + "\"}"; // longer than the first buffer
    String text = "{\"a\":1}\r\n\n  \t\n{\"b\":\"é\"}\n" + longLine + "\n{\"c\":3}";
    List<String> expected =
        List.of("1:{\"a\":1}", "4:{\"b\":\"é\"}", numbered(5, longLine), "6:{\"c\":3}");
    byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
    assertEquals(expected, lines(new ByteArrayInputStream(bytes)));
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 5; i++) {
      assertEquals(expected, lines(trickling(bytes, random)));
    }
  }
}
