package dev.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The analyzer's memory does not grow with the events a pass uses (docs/COMMANDS.md#memory): the
 * packaged jar, in a JVM whose heap (200 MB) could not hold the window's events (about 1 KB each
 * with their payload trees: 300 MB), uses all 300,000 of them with every detector on, 5,000
 * sessions open at once, and finds what the input holds. (At 160 MB it ran out of heap in one run
 * of several once the first reading ran in two parts and the events were parsed ahead on a second
 * thread: both hold more at once, 24 bytes an event for the second part until the merge, and the
 * batches in flight.)
 */
class BoundedMemoryIT {
  private static final Path JAR =
      Path.of(System.getProperty("vigil.analyzer.jar", "target/vigil-analyzer.jar"));
  private static final Instant NOW = Instant.parse("2026-11-25T12:00:00Z");
  private static final int EVENTS = 300_000;

  @TempDir Path tmp;

  /**
   * Blocks of 10 events in 5,000 sessions: a user turn, calls, failures that repeat, a claim with
   * no write.
   */
  private Path events() throws Exception {
    Path file = tmp.resolve("events.jsonl");
    Instant first = NOW.minusSeconds(EVENTS / 10 + 60);
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (int i = 0; i < EVENTS; i++) {
        int block = i / 10;
        String ts = first.plusMillis(i * 100L).toString();
        String head =
            "{\"ts\":\""
                + ts
                + "\",\"agent\":\"shop\",\"session\":\"s"
                + (block % 5000)
                + "\",\"turn\":\"t"
                + block
                + "\",\"seq\":"
                + (i + 1)
                + ",";
        String line =
            switch (i % 10) {
              case 0 ->
                  head
                      + "\"kind\":\"turn.user\",\"status\":\"ok\",\"payload\":{\"text\":\"please book a room in "
                      + "Lyon for order "
                      + block
                      + "\"}}";
              case 1 ->
                  head
                      + "\"kind\":\"tool.get_order\",\"status\":\"ok\",\"payload\":{\"tool\":\"get_order\","
                      + "\"args\":{\"id\":\"o"
                      + block
                      + "\"},\"result\":{\"id\":\"o"
                      + block
                      + "\",\"items\":[1,2,3]},"
                      + "\"duration_ms\":"
                      + (5 + i % 40)
                      + "}}";
              case 2, 3, 4 ->
                  head
                      + "\"kind\":\"tool.book_hotel\",\"status\":\"fail\",\"payload\":{\"tool\":\"book_hotel\","
                      + "\"args\":{\"city\":\"Lyon\"},\"duration_ms\":"
                      + (20 + i % 7)
                      + ",\"error\":{\"type\":\"IllegalState"
                      + "Exception\",\"message\":\"hotel booking backend unavailable retry "
                      + (i % 3)
                      + "\"}}}";
              case 5 ->
                  head
                      + "\"kind\":\"tool.search\",\"status\":\"ok\",\"payload\":{\"tool\":\"search\",\"args\":"
                      + "{\"q\":\"rooms Lyon\"},\"result\":\"3 hotels\",\"duration_ms\":"
                      + (block % 500 == 0 ? 9000 : 30)
                      + "}}";
              case 6 ->
                  head
                      + "\"kind\":\"reminder.toast\",\"status\":\"delay\",\"payload\":{\"message\":\"Reminder "
                      + block
                      + "\",\"delayed_by_sec\":"
                      + (i % 50)
                      + "}}";
              case 7 ->
                  head
                      + "\"kind\":\"tool.notify\",\"status\":\"ok\",\"payload\":{\"tool\":\"notify\",\"args\":{"
                      + "\"at\":\"2026-11-25 10:00:00\"},\"result\":\"sent\",\"duration_ms\":3}}";
              case 8 ->
                  head
                      + "\"kind\":\"tool.lookup\",\"status\":\"ok\",\"payload\":{\"tool\":\"lookup\",\"args\":{"
                      + "\"id\":"
                      + block
                      + "},\"result\":\"ok\",\"duration_ms\":2}}";
              default ->
                  head
                      + "\"kind\":\"turn.answer\",\"status\":\"ok\",\"payload\":{\"text\":\"Your room is booked "
                      + "and confirmed.\"}}";
            };
        w.write(line);
        w.newLine();
      }
    }
    return file;
  }

  @Test
  void everyEventOfAWindowTooLargeForTheHeapIsUsed() throws Exception {
    Path events = events();
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Path out = tmp.resolve("out");
    Process p =
        new ProcessBuilder(
                List.of(
                    java.toString(),
                    "-Xmx200m",
                    "-jar",
                    JAR.toString(),
                    "run",
                    "--events",
                    events.toString(),
                    "--emobank",
                    tmp.resolve("bank").toString(),
                    "--out",
                    out.toString(),
                    "--now",
                    NOW.toString(),
                    "--window-hours",
                    "24",
                    "--limit",
                    Integer.toString(EVENTS)))
            .redirectOutput(tmp.resolve("stdout.txt").toFile())
            .redirectError(tmp.resolve("stderr.txt").toFile())
            .start();
    assertTrue(p.waitFor(10, TimeUnit.MINUTES), "the pass did not end");
    String stderr = Files.readString(tmp.resolve("stderr.txt"));
    assertTrue(p.exitValue() <= 1, "exit " + p.exitValue() + ": " + stderr);
    assertTrue(!stderr.contains("out of memory"), stderr);

    JsonNode report = new ObjectMapper().readTree(out.resolve("report.json").toFile());
    assertEquals(EVENTS, report.get("events_used").asLong());
    assertEquals(EVENTS, report.get("events_deposited").asLong() + countContext());
    long fired = 0;
    for (JsonNode d : report.get("detectors")) {
      fired += d.get("count").asLong() > 0 ? 1 : 0;
      for (var field : d.get("evidence").properties()) {
        if (field.getValue().isArray()) {
          assertTrue(
              field.getValue().size() <= 50,
              d.get("name") + "." + field.getKey() + " keeps " + field.getValue().size());
        }
      }
    }
    assertTrue(fired >= 3, "detectors that fired: " + fired + " in " + report.get("detectors"));
    assertTrue(
        report.get("derived_events").asLong() > 1000, report.get("derived_events").toString());
  }

  /** The turn.* events: read by the detectors, never deposited. */
  private static long countContext() {
    return EVENTS / 10 * 2;
  }
}
