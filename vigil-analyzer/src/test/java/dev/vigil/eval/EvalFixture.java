package dev.vigil.eval;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A tiny hand-made labelled corpus: five sessions of one agent, interleaved in the file, and events
 * of another agent without a session.
 *
 * <ul>
 *   <li>{@code s1}, failed: three failures that say the same thing ({@code failure_plateau} fires);
 *   <li>{@code s2}, failed: nine calls in one turn ({@code tool_call_explosion} fires);
 *   <li>{@code s3}, good: three successful calls;
 *   <li>{@code s4}, good: nine calls in one turn (the explosion fires on a good session);
 *   <li>{@code s5}, failed: one successful call (nothing fires);
 *   <li>agent {@code other}, no session: two calls, unlabelled.
 * </ul>
 *
 * Events used per session: 3, 9, 3, 9, 1.
 */
final class EvalFixture {
  static final String[] PLATEAU = {
    "sudo: a password is required to edit the sudoers file",
    "Editing sudoers failed because sudo now requires a password",
    "The password requirement of sudo blocks every change to sudoers"
  };

  private EvalFixture() {}

  static String event(
      String session,
      int minute,
      int second,
      String kind,
      String status,
      String payload,
      String turn) {
    return "{\"ts\":\"2026-11-22T10:"
        + pad(minute)
        + ":"
        + pad(second)
        + "Z\",\"kind\":\""
        + kind
        + "\",\"status\":\""
        + status
        + "\",\"payload\":"
        + payload
        + ",\"agent\":\"shop\""
        + (turn == null ? "" : ",\"turn\":\"" + turn + "\"")
        + ",\"session\":\""
        + session
        + "\"}";
  }

  private static String pad(int n) {
    return (n < 10 ? "0" : "") + n;
  }

  static Path events(Path dir) throws IOException {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 9; i++) {
      if (i < 3) {
        lines.add(
            event(
                "s1",
                1,
                i,
                "tool.apply_fix",
                "fail",
                "{\"error\":{\"type\":\"java.io.IOException\",\"message\":\"" + PLATEAU[i] + "\"}}",
                "t1"));
        lines.add(
            event("s3", 3, i, "tool.get_order", "ok", "{\"args\":{\"id\":\"A-" + i + "\"}}", "t3"));
      }
      lines.add(event("s2", 2, i, "tool.list_orders", "ok", "{}", "t2"));
      lines.add(event("s4", 4, i, "tool.search_products", "ok", "{}", "t4"));
    }
    lines.add(event("s5", 5, 0, "tool.get_order", "ok", "{}", "t5"));
    lines.add(
        "{\"ts\":\"2026-11-22T10:06:00Z\",\"kind\":\"tool.x\",\"status\":\"ok\",\"payload\":{},\"agent\":\"other\"}");
    lines.add(
        "{\"ts\":\"2026-11-22T10:06:01Z\",\"kind\":\"tool.x\",\"status\":\"ok\",\"payload\":{},\"agent\":\"other\"}");
    lines.add("this line is not an event");
    Path file = dir.resolve("events.jsonl");
    Files.write(file, lines);
    return file;
  }

  static Path labels(Path dir, String... lines) throws IOException {
    Path file = dir.resolve("labels.jsonl");
    Files.write(file, List.of(lines));
    return file;
  }

  static Path labels(Path dir) throws IOException {
    return labels(
        dir,
        "{\"session\":\"s1\",\"failed\":true}",
        "{\"session\":\"s2\",\"failed\":true}",
        "{\"session\":\"s3\",\"failed\":false}",
        "{\"session\":\"s4\",\"failed\":false}",
        "{\"session\":\"s5\",\"failed\":true}");
  }
}
