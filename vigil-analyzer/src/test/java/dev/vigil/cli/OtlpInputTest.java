package dev.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run}, {@code eval} and {@code fit} with {@code --otlp}, on the committed OpenInference
 * traces of a restaurant concierge (samples/otlp): two sessions, one whose booking failed while the
 * answer said it was done and whose user then corrected the agent.
 */
class OtlpInputTest {
  private static final Path SAMPLE = Path.of("../samples/otlp/concierge-openinference.jsonl");
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path tmp;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    out.reset();
    err.reset();
    return Main.run(
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        args);
  }

  private String stderr() {
    return err.toString(StandardCharsets.UTF_8);
  }

  @Test
  void runDiagnosesOpenInferenceTraces() throws Exception {
    Path outDir = tmp.resolve("out");
    int code =
        run(
            "run",
            "--otlp",
            SAMPLE.toString(),
            "--emobank",
            tmp.resolve("bank").toString(),
            "--out",
            outDir.toString(),
            "--now",
            "2026-11-21T00:00:00Z");
    assertEquals(0, code, stderr());

    List<Event> events = new ArrayList<>();
    for (String line : Files.readAllLines(outDir.resolve("otlp-events.jsonl"))) {
      events.add(EventJson.read(line, ZoneOffset.UTC).event());
    }
    Map<String, Integer> kinds = new TreeMap<>();
    events.forEach(e -> kinds.merge(e.kind(), 1, Integer::sum));
    assertEquals(
        Map.of("turn.user", 3, "turn.answer", 3, "tool.book_table", 3, "tool.find_restaurant", 2),
        kinds);
    assertEquals(
        List.of("guest-481", "guest-502"), events.stream().map(Event::session).distinct().toList());
    assertTrue(events.stream().allMatch(e -> "concierge".equals(e.agent())), events.toString());

    JsonNode report = JSON.readTree(outDir.resolve("report.json").toFile());
    assertEquals(
        outDir.resolve("otlp-events.jsonl").toString(), report.at("/input/events").asText());
    assertEquals(2, report.at("/skipped/otlp_span_unmapped_operation").asInt(), report.toString());
    Map<String, Integer> fired = new TreeMap<>();
    report.get("detectors").forEach(d -> fired.put(d.get("name").asText(), d.get("count").asInt()));
    assertEquals(1, fired.get("claim_without_action"), fired.toString());
    assertEquals(1, fired.get("user_correction"), fired.toString());
  }

  @Test
  void evalMeasuresTheLabelledSessionsOfTraces() throws Exception {
    Path labels =
        Files.writeString(
            tmp.resolve("labels.jsonl"),
            "{\"session\":\"guest-481\",\"failed\":true}\n"
                + "{\"session\":\"guest-502\",\"failed\":false}\n");
    Path outDir = tmp.resolve("eval");
    int code =
        run(
            "eval",
            "--otlp",
            SAMPLE.toString(),
            "--labels",
            labels.toString(),
            "--out",
            outDir.toString());
    assertEquals(0, code, stderr());
    assertTrue(stderr().contains("16 spans, 11 events in"), stderr());
    JsonNode eval = JSON.readTree(outDir.resolve("eval.json").toFile());
    assertEquals(2, eval.get("sessions").asInt(), eval.toString());
    assertEquals(11, eval.get("events_read").asInt(), eval.toString());
    assertEquals(1, eval.at("/detectors/claim_without_action/true_positives").asInt());
    assertEquals(1.0, eval.get("auroc").asDouble(), eval.toString());
  }

  @Test
  void fitReadsTracesAndSaysWhenTheLabelsAreTooFew() throws Exception {
    Path labels =
        Files.writeString(
            tmp.resolve("labels.jsonl"),
            "{\"session\":\"guest-481\",\"failed\":true}\n"
                + "{\"session\":\"guest-502\",\"failed\":false}\n");
    int code =
        run(
            "fit",
            "--otlp",
            SAMPLE.toString(),
            "--labels",
            labels.toString(),
            "--out",
            tmp.resolve("fit").toString());
    assertEquals(2, code, stderr());
    assertTrue(Files.exists(tmp.resolve("fit/otlp-events.jsonl")), stderr());
    assertTrue(stderr().contains("1 failed"), stderr());
  }

  @Test
  void aMissingTraceFileExitsTwoNamingIt() {
    Path missing = tmp.resolve("nope.jsonl");
    int code = run("run", "--otlp", missing.toString(), "--out", tmp.resolve("o").toString());
    assertEquals(2, code);
    assertTrue(stderr().contains("OTLP file " + missing + " does not exist"), stderr());
  }
}
