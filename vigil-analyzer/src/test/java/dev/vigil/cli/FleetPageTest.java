package dev.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventJson;
import dev.vigil.report.Chromium;
import dev.vigil.report.ChromiumExtension;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * The fleet's {@code index.html}: every agent's latest alarm, worst first, in a real headless
 * Chromium.
 */
@ExtendWith(ChromiumExtension.class)
class FleetPageTest {
  private static final Instant T0 = Instant.parse("2026-11-22T11:00:00Z");
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir Path tmp;

  @Test
  void listsEveryAgentsLatestAlarmWorstFirst(Chromium chromium) throws Exception {
    String[] agents = {"wren", "alpha", "<i>kite</i>"};
    int[] failures = {0, 4, 1};
    StringBuilder events = new StringBuilder();
    for (int a = 0; a < agents.length; a++) {
      for (int i = 0; i < 4; i++) {
        events
            .append(
                EventJson.write(
                    Event.of(
                            T0.plusSeconds(60L * i + a),
                            "tool.book_slot",
                            i < failures[a] ? "fail" : "ok")
                        .withOrigin(agents[a], (long) i, null, null)))
            .append('\n');
      }
    }
    Path file = Files.writeString(tmp.resolve("fleet.jsonl"), events.toString());
    Path out = tmp.resolve("out");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    assertEquals(
        0,
        Main.run(
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            "run",
            "--events",
            file.toString(),
            "--emobank",
            tmp.resolve("bank").toString(),
            "--out",
            out.toString(),
            "--now",
            "2026-11-22T12:00:00Z"),
        err.toString(StandardCharsets.UTF_8));
    List<JsonNode> summary = new ArrayList<>();
    MAPPER.readTree(out.resolve("report.json").toFile()).get("agents").forEach(summary::add);
    summary.sort(Comparator.comparingDouble((JsonNode a) -> -a.at("/alarm/score").asDouble()));
    assertEquals("alpha", summary.get(0).get("agent").asText(), "four failures: the worst alarm");
    assertEquals("wren", summary.get(2).get("agent").asText(), "no failure: the mildest");

    Chromium.Load load = chromium.open(out.resolve("index.html"));

    assertEquals(List.of(), load.errors());
    assertEquals(List.of(), load.requests());
    List<String> names = new ArrayList<>();
    chromium
        .evaluate(
            "[...document.querySelectorAll('#agents tr.agent .name')].map(td => td.textContent)")
        .forEach(n -> names.add(n.asText()));
    assertEquals(summary.stream().map(a -> a.get("agent").asText()).toList(), names);
    List<String> levels = new ArrayList<>();
    chromium
        .evaluate(
            "[...document.querySelectorAll('#agents tr.agent .level')].map(s => s.textContent)")
        .forEach(n -> levels.add(n.asText()));
    assertEquals(summary.stream().map(a -> a.at("/alarm/level").asText()).toList(), levels);
    assertEquals(
        0,
        chromium.evaluate("document.querySelectorAll('#agents i').length").asInt(),
        "an agent's name is text");
    Files.write(Path.of("target", "fleet.png"), chromium.screenshot());
    chromium
        .evaluate("[...document.querySelectorAll('#agents a')].map(a => a.href)")
        .forEach(n -> assertTrue(Files.isRegularFile(Path.of(URI.create(n.asText()))), n.asText()));
  }
}
