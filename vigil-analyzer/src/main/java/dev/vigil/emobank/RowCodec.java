package dev.vigil.emobank;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.observe.Timestamps;
import java.io.IOException;
import java.io.OutputStream;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Arrays;

/**
 * One {@link EmotionRow} as one line of {@code emotions.jsonl}: {@code {ts, emotion, intensity,
 * valence, cause, episode, confidence, source}} and {@code "amend": true} on amend rows.
 */
final class RowCodec {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonFactory FACTORY = MAPPER.getFactory();

  private RowCodec() {}

  /**
   * The buffer of a writer of rows, reused from row to row, with the text of the last second
   * written and of the numbers written lately (rows repeat a few intensities and valences).
   */
  static final class Line {
    private static final int NUMBERS = 256;
    private byte[] bytes = new byte[256];
    private int length;
    private long second = Long.MIN_VALUE;
    private String secondText = "";
    private final long[] numberBits = new long[NUMBERS];
    private final String[] numberTexts = new String[NUMBERS];

    /** Appends ASCII text. */
    private void ascii(String s) {
      int n = s.length();
      if (length + n > bytes.length) {
        bytes = Arrays.copyOf(bytes, Math.max(length + n, 2 * bytes.length));
      }
      byte[] b = bytes;
      int at = length;
      for (int i = 0; i < n; i++) {
        b[at + i] = (byte) s.charAt(i);
      }
      length = at + n;
    }

    /** Appends {@code ts} as {@link Timestamps#format} writes it. */
    private void ts(Instant ts) {
      if (ts.getEpochSecond() != second) {
        String whole =
            Timestamps.format(Instant.ofEpochSecond(ts.getEpochSecond())); // ...:ss.000000Z
        secondText = whole.substring(0, whole.length() - "000000Z".length());
        second = ts.getEpochSecond();
      }
      ascii(secondText);
      int nanos = ts.getNano();
      if (length + 10 > bytes.length) {
        bytes = Arrays.copyOf(bytes, 2 * bytes.length);
      }
      if (nanos % 1000 == 0) {
        digits(nanos / 1000, 100_000);
      } else {
        digits(nanos, 100_000_000);
      }
      bytes[length++] = 'Z';
    }

    private void digits(int value, int firstPlace) {
      for (int place = firstPlace; place > 0; place /= 10) {
        bytes[length++] = (byte) ('0' + value / place % 10);
      }
    }

    /** Appends a finite number as {@link Double#toString} writes it. */
    private void number(double d) {
      long bits = Double.doubleToRawLongBits(d);
      int slot = (int) ((bits * 0x9E3779B97F4A7C15L) >>> 56);
      String t = numberTexts[slot];
      if (t == null || numberBits[slot] != bits) {
        t = Double.toString(d);
        numberTexts[slot] = t;
        numberBits[slot] = bits;
      }
      ascii(t);
    }
  }

  /**
   * Writes the row and a line feed in UTF-8, building the line in {@code line} (a caller reuses it
   * across rows). The bytes are those of Jackson's generator with its defaults through a UTF-8
   * writer: a row whose text is not printable ASCII that Jackson leaves as it is, or whose numbers
   * are not finite, is written by the generator itself ({@link #writeByGenerator}).
   */
  static void write(EmotionRow row, OutputStream out, Line line) throws IOException {
    if (!plain(row)) {
      StringWriter text = new StringWriter(256);
      writeByGenerator(row, text);
      out.write(
          text.toString()
              .getBytes(StandardCharsets.UTF_8)); // a lone surrogate as '?', as a writer does
      return;
    }
    line.length = 0;
    line.ascii("{\"ts\":\"");
    line.ts(row.ts());
    line.ascii("\",\"emotion\":\"");
    line.ascii(row.emotion());
    line.ascii("\",\"intensity\":");
    line.number(row.intensity());
    line.ascii(",\"valence\":");
    line.number(row.valence());
    line.ascii(",\"cause\":\"");
    line.ascii(row.cause());
    line.ascii("\",\"episode\":\"");
    line.ascii(row.episode());
    line.ascii("\",\"confidence\":");
    line.number(row.confidence());
    line.ascii(",\"source\":\"");
    line.ascii(row.source());
    line.ascii(row.amend() ? "\",\"amend\":true}\n" : "\"}\n");
    out.write(line.bytes, 0, line.length);
  }

  /** Writes the row and a line feed through Jackson's generator, without flushing {@code out}. */
  static void writeByGenerator(EmotionRow row, Writer out) throws IOException {
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
      g.disable(JsonGenerator.Feature.FLUSH_PASSED_TO_STREAM);
      g.writeStartObject();
      g.writeStringField("ts", Timestamps.format(row.ts()));
      g.writeStringField("emotion", row.emotion());
      g.writeNumberField("intensity", row.intensity());
      g.writeNumberField("valence", row.valence());
      g.writeStringField("cause", row.cause());
      g.writeStringField("episode", row.episode());
      g.writeNumberField("confidence", row.confidence());
      g.writeStringField("source", row.source());
      if (row.amend()) {
        g.writeBooleanField("amend", true);
      }
      g.writeEndObject();
    }
    out.write('\n');
  }

  /**
   * Whether every text of the row is ASCII written as it is (nothing Jackson escapes) and every
   * number finite.
   */
  private static boolean plain(EmotionRow row) {
    return Double.isFinite(row.intensity())
        && Double.isFinite(row.valence())
        && Double.isFinite(row.confidence())
        && plain(row.emotion())
        && plain(row.cause())
        && plain(row.episode())
        && plain(row.source());
  }

  private static boolean plain(String s) {
    if (s == null) {
      return false;
    }
    for (int i = 0, n = s.length(); i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') {
        return false;
      }
    }
    return true;
  }

  /**
   * Reads one line.
   *
   * @throws IllegalArgumentException saying what is wrong with the row
   */
  static EmotionRow read(String line) {
    JsonNode n;
    try {
      n = MAPPER.readTree(line);
    } catch (IOException e) {
      throw new IllegalArgumentException("not a JSON row");
    }
    if (n == null || !n.isObject()) {
      throw new IllegalArgumentException("not a JSON object");
    }
    Instant ts;
    try {
      ts = Timestamps.parse(text(n, "ts"), ZoneOffset.UTC).instant();
    } catch (DateTimeException e) {
      throw new IllegalArgumentException(
          "ts \"" + n.get("ts").asText() + "\" is not an ISO-8601 timestamp");
    }
    String cause = text(n, "cause");
    String episode = n.hasNonNull("episode") ? text(n, "episode") : Episode.of(cause);
    return new EmotionRow(
        ts,
        text(n, "emotion"),
        number(n, "intensity"),
        number(n, "valence"),
        cause,
        episode,
        n.hasNonNull("confidence") ? number(n, "confidence") : 1.0,
        n.hasNonNull("source") ? text(n, "source") : EmotionRow.FROM_EVENT,
        n.path("amend").asBoolean(false));
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.isTextual()) {
      throw new IllegalArgumentException(
          field + " " + (v == null ? "is missing" : v + " is not a string"));
    }
    return v.asText();
  }

  private static double number(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.isNumber()) {
      throw new IllegalArgumentException(
          field + " " + (v == null ? "is missing" : v + " is not a number"));
    }
    return v.doubleValue();
  }
}
