package dev.vigil.diagnose.detect;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.ingest.EventIdentity;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventJson;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds a detector's window from JSONL lines, as ingest would: refs are line numbers, oldest
 * first.
 */
final class Logs {
  private Logs() {}

  static List<WindowEvent> window(List<String> lines) {
    List<WindowEvent> out = new ArrayList<>();
    for (int i = 0; i < lines.size(); i++) {
      try {
        EventJson.Parsed p = EventJson.read(lines.get(i), ZoneOffset.UTC);
        out.add(new WindowEvent(p.event(), EventIdentity.ofContent(p.event()), i + 1, p.naiveTs()));
      } catch (EventFormatException e) {
        throw new AssertionError("line " + (i + 1) + ": " + e.getMessage(), e);
      }
    }
    out.sort((a, b) -> a.event().ts().compareTo(b.event().ts()));
    return out;
  }

  /**
   * A generated event, built directly (no JSON) so that tests can stream hundreds of thousands:
   * agent {@code a}, thread {@code main}, its ref, seq and identity {@code ref}.
   */
  static WindowEvent event(
      long ref, Instant ts, String kind, String status, String turn, ObjectNode payload) {
    return new WindowEvent(
        new Event(ts, kind, status, payload, "a", ref, 1L, "main", turn, null, null),
        ref,
        ref,
        false);
  }

  /** A generated event's payload: {@code {"duration_ms": ms}}. */
  static ObjectNode durationMs(double ms) {
    return JsonNodeFactory.instance.objectNode().put("duration_ms", ms);
  }

  /** One event line at {@code 12:MM:SS} on 2026-11-22 (UTC). */
  static String at(int minute, int second, String kind, String status, String payload) {
    return String.format(
        "{\"ts\":\"2026-11-22T12:%02d:%02dZ\",\"kind\":\"%s\",\"status\":\"%s\",\"payload\":%s}",
        minute, second, kind, status, payload);
  }
}
