package dev.vigil.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One run's line of the paper's Table 1, computed from the run's events (exported by the analyzer)
 * and the EmoBank rows its pass deposited.
 *
 * @param reminders {@code tool.set_reminder} calls
 * @param prematureToasts of those, calls that reported success before their receipt (or never got
 *     one)
 * @param meanReceiptLatencySec mean of receipt time minus call start, over the calls that got a
 *     receipt
 * @param frustrationEvents frustration rows the pass deposited (amend rows not counted)
 * @param receiptGating no success precedes its receipt (and there was at least one reminder)
 * @param utcTimestamps every scheduled time sent to the backend carries a zone and is the intended
 *     instant
 * @param receiptsMissing calls whose receipt never arrived
 * @param scheduledWrong scheduled times without a zone or off the intended instant
 */
public record RunMetrics(
    int reminders,
    int prematureToasts,
    double meanReceiptLatencySec,
    int frustrationEvents,
    boolean receiptGating,
    boolean utcTimestamps,
    int receiptsMissing,
    int scheduledWrong) {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** A relative request ("in 30 minutes") is scheduled from the minute the model read the clock. */
  private static final Duration RELATIVE_TOLERANCE = Duration.ofSeconds(61);

  /** Computes the metrics of one run. */
  static RunMetrics of(Path eventsJsonl, Path emotions, List<Request> requests, ZoneId userZone)
      throws IOException {
    List<JsonNode> events = readEvents(eventsJsonl);
    Map<String, Instant> receipts = new HashMap<>();
    Map<String, String> dueAt = new HashMap<>();
    for (JsonNode e : events) {
      String kind = e.path("kind").asText();
      JsonNode args = e.path("payload").path("args");
      if (kind.equals("reminder.receipt")) {
        receipts.putIfAbsent(
            args.path("reminderId").asText(), Instant.parse(e.path("ts").asText()));
      } else if (kind.equals("backend.schedule")) {
        dueAt.put(args.path("reminderId").asText(), args.path("dueAt").asText());
      }
    }
    int reminders = 0;
    int premature = 0;
    int missing = 0;
    int wrong = 0;
    double latencySum = 0;
    int latencies = 0;
    for (JsonNode e : events) {
      if (!e.path("kind").asText().equals("tool.set_reminder")) {
        continue;
      }
      reminders++;
      Instant start = Instant.parse(e.path("ts").asText());
      Instant answered =
          start.plusNanos(Math.round(e.path("payload").path("duration_ms").asDouble() * 1e6));
      String id = reminderId(e.path("payload").path("result"));
      Instant receipt = id == null ? null : receipts.get(id);
      if (receipt == null) {
        missing++;
        premature++;
      } else {
        latencySum += Duration.between(start, receipt).toNanos() / 1e9;
        latencies++;
        if (receipt.isAfter(answered)) {
          premature++;
        }
      }
      String task = e.path("payload").path("args").path("task").asText();
      if (!scheduledAsIntended(
          id == null ? null : dueAt.get(id), task, start, requests, userZone)) {
        wrong++;
      }
    }
    return new RunMetrics(
        reminders,
        premature,
        latencies == 0 ? Double.NaN : latencySum / latencies,
        frustration(emotions),
        reminders > 0 && premature == 0,
        reminders > 0 && wrong == 0,
        missing,
        wrong);
  }

  /** The events of a JSON lines file, blank lines skipped. */
  private static List<JsonNode> readEvents(Path eventsJsonl) throws IOException {
    List<JsonNode> events = new java.util.ArrayList<>();
    for (String line : Files.readAllLines(eventsJsonl)) {
      if (!line.isBlank()) {
        events.add(JSON.readTree(line));
      }
    }
    return events;
  }

  private static boolean scheduledAsIntended(
      String due, String task, Instant callStart, List<Request> requests, ZoneId userZone) {
    if (due == null) {
      return false;
    }
    Instant scheduled;
    try {
      scheduled = OffsetDateTime.parse(due).toInstant();
    } catch (DateTimeParseException naive) {
      return false; // no zone
    }
    for (Request r : requests) {
      if (r.task().equalsIgnoreCase(task)) {
        Instant intended = r.intended(callStart, userZone);
        Duration off = Duration.between(intended, scheduled).abs();
        return r.relative() ? off.compareTo(RELATIVE_TOLERANCE) <= 0 : off.isZero();
      }
    }
    return true; // a task the requests do not name (a real model's wording): only the zone is
    // checked
  }

  private static String reminderId(JsonNode result) {
    if (!result.isTextual()) {
      return null;
    }
    try {
      JsonNode r = JSON.readTree(result.asText());
      return r.hasNonNull("reminderId") ? r.get("reminderId").asText() : null;
    } catch (IOException notJson) {
      return null;
    }
  }

  private static int frustration(Path emotions) throws IOException {
    int n = 0;
    if (Files.exists(emotions)) {
      for (String line : Files.readAllLines(emotions)) {
        JsonNode row = line.isBlank() ? null : JSON.readTree(line);
        if (row != null
            && row.path("emotion").asText().equals("frustration")
            && !row.path("amend").asBoolean()) {
          n++;
        }
      }
    }
    return n;
  }

  /** This line as JSON, as {@code summary.json} holds it (demo-robin/README.md). */
  ObjectNode toJson() {
    ObjectNode n = JSON.createObjectNode();
    n.put("reminders", reminders).put("premature_toasts", prematureToasts);
    if (Double.isNaN(meanReceiptLatencySec)) {
      n.putNull("mean_receipt_latency_sec");
    } else {
      n.put("mean_receipt_latency_sec", Math.round(meanReceiptLatencySec * 100) / 100.0);
    }
    n.put("frustration_events", frustrationEvents)
        .put("receipt_gating", receiptGating)
        .put("utc_timestamps", utcTimestamps)
        .put("receipts_missing", receiptsMissing)
        .put("scheduled_times_wrong", scheduledWrong);
    return n;
  }
}
