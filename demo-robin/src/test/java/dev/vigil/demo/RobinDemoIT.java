package dev.vigil.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole loop on four requests: capture, diagnose, propose, apply, rebuild, run again, measure.
 */
class RobinDemoIT {
  @TempDir Path tmp;

  @Test
  void everyMetricMovesTheRightWay() throws Exception {
    Path root = Path.of(System.getProperty("vigil.root", "..")).toAbsolutePath().normalize();
    Path requests =
        Files.writeString(
            tmp.resolve("requests.txt"),
            String.join(
                    "\n",
                    "remind me in 30 minutes to stretch",
                    "remind me at 15:00 to call mom",
                    "remind me in 45 minutes to drink water",
                    "remind me at 18:30 to take out the trash")
                + "\n");
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    int exit =
        RobinDemo.run(
            new RobinDemo.Layout(root, tmp.resolve("demo"), requests, 0.05),
            new PrintStream(printed, true, StandardCharsets.UTF_8));
    String out = printed.toString(StandardCharsets.UTF_8);
    assertEquals(0, exit, out);

    JsonNode s = new ObjectMapper().readTree(tmp.resolve("demo/summary.json").toFile());
    JsonNode before = s.get("before");
    JsonNode after = s.get("after");
    assertEquals(4, before.get("reminders").asInt(), out);
    assertEquals(4, after.get("reminders").asInt(), out);
    assertEquals(4, before.get("premature_toasts").asInt(), out);
    assertEquals(0, after.get("premature_toasts").asInt(), out);
    assertTrue(before.get("frustration_events").asInt() > 0, out);
    assertEquals(0, after.get("frustration_events").asInt(), out);
    assertFalse(before.get("receipt_gating").asBoolean(), out);
    assertTrue(after.get("receipt_gating").asBoolean(), out);
    assertFalse(before.get("utc_timestamps").asBoolean(), out);
    assertTrue(after.get("utc_timestamps").asBoolean(), out);
    assertTrue(
        after.get("mean_receipt_latency_sec").asDouble()
            < before.get("mean_receipt_latency_sec").asDouble(),
        out);
    assertTrue(s.get("proposals").size() >= 1, out);
    assertTrue(out.contains("premature toasts"), out);
    for (String side : new String[] {"before", "after"}) {
      Path html = tmp.resolve("demo").resolve(side).resolve("vigil").resolve("report.html");
      assertTrue(
          Files.isRegularFile(html) && out.contains(html.toString()),
          side + ": " + html + "\n" + out);
    }
  }
}
