package dev.vigil.diagnose.policy;

import dev.vigil.diagnose.detect.WindowEvent;
import dev.vigil.ingest.EventIdentity;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventJson;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * A shop agent's events as JSONL lines, and the window a detector sees of them (refs are line
 * numbers).
 */
final class Shop {
  private Shop() {}

  /**
   * One line at second {@code second} past 12:00 on 2026-11-22 (UTC) of agent {@code shop} in
   * {@code session}.
   */
  static String at(int second, String session, String kind, String status, String payload) {
    return on("shop", second, session, kind, status, payload);
  }

  /** One line of an agent; a null session is left out. */
  static String on(
      String agent, int second, String session, String kind, String status, String payload) {
    return String.format(
        "{\"ts\":\"2026-11-22T12:%02d:%02dZ\",\"kind\":\"%s\",\"status\":\"%s\",\"agent\":\"%s\","
            + "%s\"turn\":\"t-%d\",\"payload\":%s}",
        second / 60,
        second % 60,
        kind,
        status,
        agent,
        session == null ? "" : "\"session\":\"" + session + "\",",
        second / 10,
        payload);
  }

  static String user(int second, String session, String text) {
    return at(second, session, "turn.user", "ok", "{\"text\":\"" + text + "\"}");
  }

  static String getOrder(int second, String session, String orderStatus) {
    return at(
        second,
        session,
        "tool.get_order",
        "ok",
        "{\"tool\":\"getOrder\",\"args\":{\"id\":\"7\"},"
            + "\"result\":{\"id\":\"7\",\"status\":\""
            + orderStatus
            + "\"}}");
  }

  static String refund(int second, String session) {
    return at(
        second,
        session,
        "tool.refund_order",
        "ok",
        "{\"tool\":\"refundOrder\",\"args\":{\"id\":\"7\","
            + "\"amount\":150},\"result\":\"refunded\"}");
  }

  /** The rules file's policies array with one rule. */
  static String policy(String name, String tool, String violation) {
    return "{\"policies\":[{\"name\":\""
        + name
        + "\",\"tool\":\""
        + tool
        + "\",\"violation\":\""
        + violation.replace("\\", "\\\\").replace("\"", "\\\"")
        + "\",\"severity\":0.6}]}";
  }

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
}
