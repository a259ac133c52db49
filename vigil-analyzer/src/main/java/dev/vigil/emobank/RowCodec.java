package dev.vigil.emobank;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.observe.Timestamps;
import java.io.IOException;
import java.io.Writer;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.ZoneOffset;

/**
 * One {@link EmotionRow} as one line of {@code emotions.jsonl}: {@code {ts, emotion, intensity, valence, cause,
 * episode, confidence, source}} and {@code "amend": true} on amend rows.
 */
final class RowCodec {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonFactory FACTORY = MAPPER.getFactory();

  private RowCodec() {}

  /** Writes the row and a line feed. */
  static void write(EmotionRow row, Writer out) throws IOException {
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
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
      throw new IllegalArgumentException("ts \"" + n.get("ts").asText() + "\" is not an ISO-8601 timestamp");
    }
    String cause = text(n, "cause");
    String episode = n.hasNonNull("episode") ? text(n, "episode") : Episode.of(cause);
    return new EmotionRow(ts, text(n, "emotion"), number(n, "intensity"), number(n, "valence"), cause, episode,
        n.hasNonNull("confidence") ? number(n, "confidence") : 1.0,
        n.hasNonNull("source") ? text(n, "source") : EmotionRow.FROM_EVENT,
        n.path("amend").asBoolean(false));
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.isTextual()) {
      throw new IllegalArgumentException(field + " " + (v == null ? "is missing" : v + " is not a string"));
    }
    return v.asText();
  }

  private static double number(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.isNumber()) {
      throw new IllegalArgumentException(field + " " + (v == null ? "is missing" : v + " is not a number"));
    }
    return v.doubleValue();
  }
}
