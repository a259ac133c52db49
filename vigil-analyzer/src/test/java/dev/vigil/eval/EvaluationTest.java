package dev.vigil.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EvaluationTest {
  /**
   * Ranks a session by how many events its pass used: shows that each pass sees its own events, all
   * of them.
   */
  private static final Score EVENTS_USED = new Score("events_used", r -> r.eventsUsed(), r -> null);

  @TempDir Path tmp;

  private EvalReport run(Path labels, Score score) throws Exception {
    return Evaluation.builder()
        .events(EvalFixture.events(tmp))
        .labels(labels)
        .score(score)
        .clock(Clock.fixed(Instant.parse("2026-11-22T12:00:00Z"), ZoneOffset.UTC))
        .build()
        .run();
  }

  @Test
  void eachLabelledSessionGetsAPassOverItsOwnEvents() throws Exception {
    EvalReport r = run(EvalFixture.labels(tmp), EVENTS_USED);
    // failed 3, 9, 1 against good 3, 9: 3 ties 3 (0.5), 9 beats 3 (1) and ties 9 (0.5): 2 of 6
    assertEquals(5, r.sessions());
    assertEquals(3, r.failed());
    assertEquals(1.0 / 3, r.auroc(), 1e-12);
    JsonNode json = r.toJson();
    assertEquals(13.0 / 3, json.get("mean_score").get("failed").asDouble(), 1e-12);
    assertEquals(6.0, json.get("mean_score").get("good").asDouble(), 1e-12);
    assertEquals(1, json.get("sessions_unlabelled").asInt()); // agent "other"
    assertEquals(1, json.get("events_skipped").get("not_json").asInt());
  }

  @Test
  void eachDetectorIsScoredBySessionsFiredPrecisionAndRecall() throws Exception {
    JsonNode d = run(EvalFixture.labels(tmp), EVENTS_USED).toJson().get("detectors");
    assertEquals(
        "{\"fired\":1,\"true_positives\":1,\"precision\":1.0,\"recall\":0.3333333333333333}",
        d.get("failure_plateau").toString());
    assertEquals(
        "{\"fired\":2,\"true_positives\":1,\"precision\":0.5,\"recall\":0.3333333333333333}",
        d.get("tool_call_explosion").toString());
    assertEquals(
        "{\"fired\":0,\"true_positives\":0,\"precision\":null,\"recall\":0.0}",
        d.get("premature_success").toString());
  }

  @Test
  void aSingleClassGivesNoAurocAndSaysWhy() throws Exception {
    Path labels =
        EvalFixture.labels(
            tmp, "{\"session\":\"s3\",\"failed\":false}", "{\"session\":\"s4\",\"failed\":false}");
    EvalReport r = run(labels, EVENTS_USED);
    JsonNode json = r.toJson();
    assertTrue(json.get("auroc").isNull());
    assertTrue(json.get("auroc_ci95").isNull());
    assertEquals(
        "the labelled sessions are all good: the AUROC needs both classes",
        json.get("auroc_undefined").asText());
    assertTrue(
        r.text().contains("AUROC of events_used: undefined (the labelled sessions are all good)"),
        r.text());
  }

  @Test
  void unknownSessionsAndBadLabelLinesAreCountedAndNamed() throws Exception {
    Path labels =
        EvalFixture.labels(
            tmp,
            "{\"session\":\"s1\",\"failed\":true}",
            "{\"session\":\"s9\",\"failed\":true}",
            "oops",
            "{\"session\":\"s3\",\"failed\":false}");
    EvalReport r = run(labels, EVENTS_USED);
    JsonNode json = r.toJson();
    assertEquals(2, r.sessions());
    assertEquals(1, json.get("labels_unknown_sessions").asInt());
    assertEquals("[\"s9\"]", json.get("labels_unknown").toString());
    assertEquals(1, json.get("labels_bad_lines").asInt());
    assertEquals("[\"line 3: not JSON\"]", json.get("labels_bad").toString());
    assertEquals(4, json.get("sessions_unlabelled").asInt()); // s2, s4, s5 and agent "other"
  }

  @Test
  void labelsThatMatchNoSessionAreRefusedNamingBothFiles() throws Exception {
    Path labels = EvalFixture.labels(tmp, "{\"session\":\"nope\",\"failed\":true}");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> run(labels, EVENTS_USED));
    assertTrue(
        e.getMessage().startsWith("no session of labels file " + labels + " has events in "),
        e.getMessage());
  }

  @Test
  void progressComesEveryNSessionsAndAtTheEnd() throws Exception {
    List<String> lines = new ArrayList<>();
    Evaluation.builder()
        .events(EvalFixture.events(tmp))
        .labels(EvalFixture.labels(tmp))
        .score(EVENTS_USED)
        .clock(Clock.fixed(Instant.parse("2026-11-22T12:00:00Z"), ZoneOffset.UTC))
        .progress(lines::add, 2, Duration.ofHours(1))
        .build()
        .run();
    assertEquals(
        List.of(
            "5 labelled sessions to analyze, one pass each",
            "2/5 sessions (0.0 s)",
            "4/5 sessions (0.0 s)",
            "5/5 sessions (0.0 s)"),
        lines);
  }

  @Test
  void noTemporaryBankIsLeftBehind() throws Exception {
    Path before = Path.of(System.getProperty("java.io.tmpdir"));
    long count;
    try (var s = Files.list(before)) {
      count = s.filter(p -> p.getFileName().toString().startsWith("vigil-eval")).count();
    }
    run(EvalFixture.labels(tmp), EVENTS_USED);
    try (var s = Files.list(before)) {
      assertEquals(
          count, s.filter(p -> p.getFileName().toString().startsWith("vigil-eval")).count());
    }
  }
}
