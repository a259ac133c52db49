package dev.vigil.cli;

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
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EvalCommandTest {
  @TempDir Path tmp;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return Main.run(
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        args);
  }

  private Path events() throws Exception {
    String plateau =
        "{\"ts\":\"2026-11-22T10:00:0%dZ\",\"kind\":\"tool.apply_fix\",\"status\":\"fail\",\"payload\":"
            + "{\"error\":{\"message\":\"%s\"}},\"agent\":\"a\",\"session\":\"bad\"}";
    String ok =
        "{\"ts\":\"2026-11-22T11:00:0%dZ\",\"kind\":\"tool.get_order\",\"status\":\"ok\",\"payload\":{},"
            + "\"agent\":\"a\",\"session\":\"good\"}";
    Path file = tmp.resolve("events.jsonl");
    Files.write(
        file,
        List.of(
            String.format(plateau, 0, "sudo: a password is required to edit the sudoers file"),
            String.format(
                plateau, 1, "Editing sudoers failed because sudo now requires a password"),
            String.format(
                plateau, 2, "The password requirement of sudo blocks every change to sudoers"),
            String.format(ok, 0),
            String.format(ok, 1)));
    return file;
  }

  private Path labels(String... lines) throws Exception {
    Path file = tmp.resolve("labels.jsonl");
    Files.write(file, List.of(lines));
    return file;
  }

  @Test
  void printsAndWritesTheFiguresAndOneLinePerSession() throws Exception {
    Path labels =
        labels(
            "{\"session\":\"bad\",\"failed\":true}",
            "{\"session\":\"good\",\"failed\":false}",
            "{\"session\":\"gone\",\"failed\":false}",
            "{broken");
    Path outDir = tmp.resolve("out");
    int exit =
        run(
            "eval",
            "--events",
            events().toString(),
            "--labels",
            labels.toString(),
            "--out",
            outDir.toString(),
            "--progress-every",
            "1");
    String stdout = out.toString(StandardCharsets.UTF_8);
    String stderr = err.toString(StandardCharsets.UTF_8);
    assertEquals(0, exit, stdout + stderr);
    JsonNode json = new ObjectMapper().readTree(outDir.resolve("eval.json").toFile());
    assertEquals(2, json.get("sessions").asInt());
    assertEquals(1, json.get("failed").asInt());
    assertEquals("alarm.score", json.get("score").asText());
    assertEquals(
        1.0,
        json.get("auroc").asDouble()); // the plateau raises the alarm; the good session has none
    assertEquals("[1.0,1.0]", json.get("auroc_ci95").toString());
    assertEquals(1, json.get("levels").get("watch_or_alarm").get("fired").asInt());
    assertEquals(1, json.get("detectors").get("failure_plateau").get("fired").asInt());
    assertEquals(1.0, json.get("detectors").get("failure_plateau").get("recall").asDouble());
    assertEquals(1, json.get("labels_unknown_sessions").asInt());
    assertEquals(1, json.get("labels_bad_lines").asInt());
    List<String> sessions = Files.readAllLines(outDir.resolve("eval_sessions.jsonl"));
    assertEquals(2, sessions.size());
    assertTrue(
        sessions.get(0).contains("\"session\":\"bad\"")
            && sessions.get(0).contains("\"failure_plateau\""),
        sessions.get(0));
    assertTrue(stdout.contains("eval: 2 labelled sessions (1 failed, 1 good)"), stdout);
    assertTrue(stdout.contains("labels: 1 bad lines (line 4: not JSON)"), stdout);
    assertTrue(stdout.contains("labels: 1 sessions have no events (gone)"), stdout);
    assertTrue(
        stderr.contains(" vigil eval INFO: 1/2 sessions")
            && stderr.contains(" vigil eval INFO: 2/2 sessions"),
        stderr);
  }

  @Test
  void reportsWritesEachSessionsArtifactsUnderItsName() throws Exception {
    Path labels =
        labels("{\"session\":\"bad\",\"failed\":true}", "{\"session\":\"good\",\"failed\":false}");
    Path reports = tmp.resolve("sessions");
    assertEquals(
        0,
        run(
            "eval",
            "--events",
            events().toString(),
            "--labels",
            labels.toString(),
            "--out",
            tmp.resolve("out").toString(),
            "--reports",
            reports.toString()),
        err.toString(StandardCharsets.UTF_8));
    for (String name : List.of("bad", "good")) {
      for (String file : List.of("report.json", "report.md", "report.html")) {
        assertTrue(Files.isRegularFile(reports.resolve(name).resolve(file)), name + "/" + file);
      }
    }
    JsonNode bad = new ObjectMapper().readTree(reports.resolve("bad/report.json").toFile());
    assertEquals("alarm", bad.at("/alarm/level").asText(), bad.get("alarm").toString());
    assertEquals(
        0.0,
        new ObjectMapper()
            .readTree(reports.resolve("good/report.json").toFile())
            .at("/alarm/score")
            .asDouble());
  }

  @Test
  void aSingleClassIsReportedAsUndefinedNotAsANumber() throws Exception {
    Path outDir = tmp.resolve("out");
    int exit =
        run(
            "eval",
            "--events",
            events().toString(),
            "--labels",
            labels("{\"session\":\"bad\",\"failed\":true}").toString(),
            "--out",
            outDir.toString());
    assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
    JsonNode json = new ObjectMapper().readTree(outDir.resolve("eval.json").toFile());
    assertTrue(json.get("auroc").isNull());
    assertTrue(
        out.toString(StandardCharsets.UTF_8)
            .contains("undefined (the labelled sessions are all failed)"));
  }

  @Test
  void missingFilesAndLabelsOfNoSessionExitTwoNamingTheInput() throws Exception {
    Path missing = tmp.resolve("missing.jsonl");
    assertEquals(
        2,
        run(
            "eval",
            "--events",
            events().toString(),
            "--labels",
            missing.toString(),
            "--out",
            tmp.resolve("o").toString()));
    assertTrue(
        err.toString(StandardCharsets.UTF_8)
            .contains("labels file " + missing + " does not exist"));
    err.reset();
    assertEquals(
        2,
        run(
            "eval",
            "--events",
            missing.toString(),
            "--labels",
            labels("{\"session\":\"bad\",\"failed\":true}").toString(),
            "--out",
            tmp.resolve("o").toString()));
    assertTrue(
        err.toString(StandardCharsets.UTF_8)
            .contains("events file " + missing + " does not exist"));
    err.reset();
    assertEquals(
        2,
        run(
            "eval",
            "--events",
            events().toString(),
            "--labels",
            labels("{\"session\":\"x\",\"failed\":true}").toString(),
            "--out",
            tmp.resolve("o").toString()));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("no session of labels file"));
    assertFalse(Files.exists(tmp.resolve("o/eval.json")));
  }

  @Test
  void theStressCanBeMeasuredForComparisonAndAnUnknownScoreExitsTwo() throws Exception {
    Path labels =
        labels("{\"session\":\"bad\",\"failed\":true}", "{\"session\":\"good\",\"failed\":false}");
    Path outDir = tmp.resolve("out");
    assertEquals(
        0,
        run(
            "eval",
            "--events",
            events().toString(),
            "--labels",
            labels.toString(),
            "--out",
            outDir.toString(),
            "--score",
            "stress"));
    JsonNode json = new ObjectMapper().readTree(outDir.resolve("eval.json").toFile());
    assertEquals("snapshot.stress", json.get("score").asText());
    assertFalse(json.has("levels"));
    assertEquals(
        2,
        run(
            "eval",
            "--events",
            events().toString(),
            "--labels",
            labels.toString(),
            "--score",
            "mood"));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("no score \"mood\""));
  }

  @Test
  void aRulesFileThatIsNotJsonExitsTwo() throws Exception {
    Path rules = tmp.resolve("rules.json");
    Files.writeString(rules, "{not json");
    assertEquals(
        2,
        run(
            "eval",
            "--events",
            events().toString(),
            "--labels",
            labels("{\"session\":\"bad\",\"failed\":true}").toString(),
            "--rules",
            rules.toString()));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("rules file " + rules));
  }
}
