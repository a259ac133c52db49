package dev.vigil.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.emobank.EmotionRow;
import java.io.IOException;
import java.time.Instant;

/**
 * One entry of an agent's bank journal in Kafka (the topic {@code <topic>.emobank}, partition for
 * partition with the events): an event of the agent taken from the topic (its JSON, and its
 * appraisal unless it is {@code turn.*} context), or a detector's derived deposit (its row only).
 * Replayed in order through {@code EmoBank.deposit}, the entries rebuild the bank exactly, because
 * the deposit policy is a function of the rows in order.
 *
 * @param agent the agent's display name
 * @param identity the deposit's identity ({@link dev.vigil.ingest.EventIdentity})
 * @param event the event's JSON line (docs/DESIGN.md#the-event), or null for a derived deposit
 * @param row the appraisal deposited, or null for context
 * @param derived whether a detector derived it
 */
record BankRecord(String agent, long identity, String event, EmotionRow row, boolean derived) {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** An event of the topic, appraised into {@code row} (null for context). */
  static BankRecord event(String agent, long identity, String eventJson, EmotionRow row) {
    return new BankRecord(agent, identity, eventJson, row, false);
  }

  /** A detector's derived deposit. */
  static BankRecord derived(String agent, long identity, EmotionRow row) {
    return new BankRecord(agent, identity, null, row, true);
  }

  /** Whether it counts in {@code events_deposited_total}: the agent's own event, deposited. */
  boolean countsAsEvent() {
    return !derived && row != null;
  }

  /** The record's key: unique per deposit, so that compaction keeps every entry. */
  String key() {
    return agent + "#" + Long.toHexString(identity);
  }

  String toJson() {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("agent", agent);
    n.put("id", identity);
    if (event != null) {
      n.put("event", event);
    }
    if (row != null) {
      ObjectNode r = n.putObject("row");
      r.put("ts", row.ts().toString());
      r.put("emotion", row.emotion());
      r.put("intensity", row.intensity());
      r.put("valence", row.valence());
      r.put("cause", row.cause());
      r.put("episode", row.episode());
      r.put("confidence", row.confidence());
      r.put("source", row.source());
    }
    n.put("derived", derived);
    return n.toString();
  }

  /**
   * Reads an entry this class wrote.
   *
   * @throws IllegalArgumentException naming what is wrong
   */
  static BankRecord fromJson(String json) {
    try {
      JsonNode n = MAPPER.readTree(json);
      JsonNode r = n.get("row");
      EmotionRow row =
          r == null
              ? null
              : new EmotionRow(
                  Instant.parse(r.get("ts").asText()),
                  r.get("emotion").asText(),
                  r.get("intensity").asDouble(),
                  r.get("valence").asDouble(),
                  r.get("cause").asText(),
                  r.get("episode").asText(),
                  r.get("confidence").asDouble(),
                  r.get("source").asText(),
                  false);
      return new BankRecord(
          n.get("agent").asText(),
          n.get("id").asLong(),
          n.hasNonNull("event") ? n.get("event").asText() : null,
          row,
          n.path("derived").asBoolean());
    } catch (IOException | RuntimeException e) {
      throw new IllegalArgumentException("not a Vigil bank entry: " + e.getMessage(), e);
    }
  }
}
