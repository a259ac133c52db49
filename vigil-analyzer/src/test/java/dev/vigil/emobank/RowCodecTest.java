package dev.vigil.emobank;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A row's line is byte for byte what Jackson's generator writes, and reads back as the row. */
class RowCodecTest {
  private static final String[] TEXTS = {
    "frustration", "tool.set_reminder:ok", "", "café ☃", "\uD83D\uDE00 smile", "a\"quote",
        "back\\slash",
    "tab\there", "nl\n", "ctl\u0001\u001f", "slash/ del\u007f", "lone \uD800 surrogate",
        "ünïcödé:fail", "x:y"
  };
  private static final double[] NUMBERS = {
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.1,
    0.5,
    1.84,
    1e-7,
    1.0e7,
    123456789.12345679,
    4.9e-324,
    Double.MAX_VALUE,
    1e21,
    1e-3,
    0.001,
    2.5e-5,
    Double.NaN,
    Double.POSITIVE_INFINITY,
    Double.NEGATIVE_INFINITY
  };

  private static String lineOf(EmotionRow row, RowCodec.Line line) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    RowCodec.write(row, out, line);
    return out.toString(StandardCharsets.ISO_8859_1); // byte for byte
  }

  /** The line as the bank wrote it before: Jackson's generator through a UTF-8 writer. */
  private static String generatorLineOf(EmotionRow row) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Writer writer = new OutputStreamWriter(out, StandardCharsets.UTF_8);
    RowCodec.writeByGenerator(row, writer);
    writer.flush();
    return out.toString(StandardCharsets.ISO_8859_1);
  }

  @Test
  void linesAreTheGeneratorsOnVariedRows() throws IOException {
    Random random = new Random(19);
    RowCodec.Line line = new RowCodec.Line();
    Instant base = Instant.parse("2026-11-25T03:04:05Z");
    for (int i = 0; i < 20_000; i++) {
      Instant ts =
          base.plusSeconds(random.nextInt(100_000))
              .plusNanos(
                  switch (i % 4) {
                    case 0 -> 0;
                    case 1 -> random.nextInt(1000) * 1_000_000L;
                    case 2 -> random.nextInt(1_000_000) * 1000L;
                    default -> random.nextInt(1_000_000_000);
                  });
      EmotionRow row =
          new EmotionRow(
              ts,
              text(random, i),
              number(random),
              number(random),
              text(random, i + 1),
              text(random, i + 2),
              number(random),
              random.nextBoolean() ? EmotionRow.FROM_EVENT : text(random, i + 3),
              random.nextBoolean());
      assertEquals(generatorLineOf(row), lineOf(row, line), row.toString());
    }
  }

  @Test
  void aTypicalRowIsWrittenAndReadBack() throws IOException {
    EmotionRow row =
        EmotionRow.of(
            Instant.parse("2026-11-24T23:43:19.001Z"),
            "frustration",
            0.55,
            -0.6,
            "tool.book_hotel:fail");
    String line = lineOf(row, new RowCodec.Line());
    assertEquals(
        "{\"ts\":\"2026-11-24T23:43:19.001000Z\",\"emotion\":\"frustration\",\"intensity\":0.55,"
            + "\"valence\":-0.6,\"cause\":\"tool.book_hotel:fail\",\"episode\":\""
            + row.episode()
            + "\",\"confidence\":1.0,\"source\":\"event\"}\n",
        line);
    assertEquals(row, RowCodec.read(line.strip()));
    EmotionRow amend = row.amended(row.ts().plusSeconds(1), 0.7);
    assertEquals(amend, RowCodec.read(lineOf(amend, new RowCodec.Line()).strip()));
    EmotionRow unicode =
        EmotionRow.of(row.ts(), "frustration", 0.55, -0.6, "tool.réserver:échec ☃");
    assertEquals(
        unicode,
        RowCodec.read(
            new String(
                    lineOf(unicode, new RowCodec.Line()).getBytes(StandardCharsets.ISO_8859_1),
                    StandardCharsets.UTF_8)
                .strip()));
  }

  private static String text(Random random, int i) {
    if (i % 11 == 0) {
      return null;
    }
    StringBuilder b = new StringBuilder();
    for (int k = random.nextInt(3); k >= 0; k--) {
      b.append(TEXTS[random.nextInt(i % 3 == 0 ? TEXTS.length : 3)]);
    }
    return b.toString();
  }

  private static double number(Random random) {
    return switch (random.nextInt(4)) {
      case 0 -> NUMBERS[random.nextInt(NUMBERS.length)];
      case 1 -> random.nextDouble();
      case 2 -> Math.round(random.nextDouble() * 1000) / 1000.0;
      default -> (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(40) - 20);
    };
  }
}
