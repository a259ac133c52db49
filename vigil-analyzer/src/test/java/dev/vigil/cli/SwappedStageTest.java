package dev.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.diagnose.Diagnosis;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.emobank.EmoBank;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventJson;
import dev.vigil.orchestrate.BankUpdate;
import dev.vigil.orchestrate.PassContext;
import dev.vigil.orchestrate.Stages;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Self-repair (docs/STAGES.md#self-repair) with one stage swapped, by a lambda in the test only,
 * for one that throws.
 */
class SwappedStageTest {
  private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");

  @TempDir Path tmp;

  private final StringWriter err = new StringWriter();
  private final StringWriter out = new StringWriter();

  /** A diagnosis stage with a type mismatch inside, as a mapping bug would have. */
  static Diagnosis mismatchedDiagnosis(
      PassContext pass, BankUpdate update, List<Detection> detections) {
    Object count = "12";
    throw new ClassCastException(
        "class java.lang.String cannot be cast to class java.lang.Integer ("
            + ((Integer) count)
            + ")");
  }

  private int run(Stages stages, Path events, Path bank, String... extra) {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    CommandLine cli =
        new CommandLine(
            new RunCommand(Clock.fixed(NOW, ZoneOffset.UTC), stages, java.util.Map.of()));
    cli.setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
    String[] base = {
      "--events",
      events.toString(),
      "--emobank",
      bank.toString(),
      "--out",
      tmp.resolve("out").toString(),
      "--now",
      NOW.toString()
    };
    String[] args = new String[base.length + extra.length];
    System.arraycopy(base, 0, args, 0, base.length);
    System.arraycopy(extra, 0, args, base.length, extra.length);
    return cli.execute(args);
  }

  private Path events(String name, int from, int to) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int i = from; i < to; i++) {
      var payload = EventJson.mapper().createObjectNode().put("i", i);
      String status = i % 3 == 0 ? "fail" : "ok";
      sb.append(
              EventJson.write(
                  Event.of(NOW.minusSeconds(3600 - 30L * i), "tool.book", status, payload)))
          .append('\n');
    }
    return Files.writeString(tmp.resolve(name), sb.toString());
  }

  private JsonNode report() throws IOException {
    return new ObjectMapper().readTree(tmp.resolve("out/report.json").toFile());
  }

  @Test
  void aThrowingDiagnosisBecomesASchemaConflictWithAProvisionalDiagnosisAndIsResolvedNextPass()
      throws Exception {
    Path bank = tmp.resolve("bank");
    assertEquals(0, run(Stages.defaults(), events("a.jsonl", 0, 30), bank), err.toString());
    String lastTop = report().at("/rbt/top_thorns/0/cause").asText();
    assertEquals("tool.book:fail", lastTop);

    assertEquals(
        1,
        run(
            Stages.defaults().withDiagnose(SwappedStageTest::mismatchedDiagnosis),
            events("b.jsonl", 30, 60),
            bank));
    JsonNode r = report();
    JsonNode thorn = r.at("/internal_thorns/0");
    assertEquals("internal.schema_conflict", thorn.get("type").asText());
    assertEquals("diagnosed", thorn.get("stage").asText());
    assertEquals("java.lang.ClassCastException", thorn.get("exception").asText());
    assertTrue(
        thorn.get("frames").get(0).asText().contains("SwappedStageTest.mismatchedDiagnosis"),
        thorn.toString());
    assertTrue(
        thorn
            .get("suggestion")
            .asText()
            .startsWith(
                "At dev.vigil.cli.SwappedStageTest.mismatchedDiagnosis (SwappedStageTest.java:"),
        thorn.toString());
    // the bank was updated before the failure; the diagnosis falls back to the last snapshot's top
    // thorns
    assertEquals(30, r.get("events_deposited").asInt());
    assertTrue(r.at("/rbt/provisional").asBoolean());
    assertEquals(lastTop, r.at("/rbt/top_thorns/0/cause").asText());
    assertEquals(0, r.at("/rbt/counts/thorns").asInt());
    assertEquals("diff_done", r.get("stage").asText());
    assertTrue(
        err.toString().contains("internal thorn internal.schema_conflict at stage diagnosed"),
        err.toString());
    assertTrue(Files.readString(tmp.resolve("out/report.md")).contains("## Self-repair"));

    assertEquals(0, run(Stages.defaults(), events("b.jsonl", 30, 60), bank), err.toString());
    r = report();
    assertEquals(0, r.get("internal_thorns").size());
    assertEquals("diagnosed", r.at("/internal_thorns_resolved/0/stage").asText());
    assertFalse(r.at("/rbt/provisional").asBoolean());
  }

  @Test
  void anInterruptedStageCancelsThePassInsteadOfBecomingAnInternalThorn() throws Exception {
    // what watch's stop does to a pass still running after its grace (WatcherTest): the read of
    // the queue is interrupted, and the pass must end without a thorn or a report
    Path bank = tmp.resolve("bank");
    int exit =
        run(
            Stages.defaults()
                .withDiagnose(
                    (pass, update, detections) -> {
                      throw new java.io.UncheckedIOException(
                          new java.nio.channels.ClosedByInterruptException());
                    }),
            events("a.jsonl", 0, 30),
            bank);
    assertEquals(1, exit);
    assertTrue(
        err.toString().contains("java.util.concurrent.CancellationException"), err.toString());
    assertFalse(err.toString().contains("internal thorn"), err.toString());
    assertFalse(Files.exists(tmp.resolve("out/report.json")));
    assertFalse(Files.exists(tmp.resolve("out/internal_thorns.json")));
  }

  @Test
  void aFailingPromptStageIsAnIoThornAndTheCodeStageStillRuns() throws Exception {
    Path bank = tmp.resolve("bank");
    Path prompt =
        Files.writeString(
            tmp.resolve("prompt.txt"),
            "## BEGIN_CORE_IDENTITY\nYou are Robin.\n## END_CORE_IDENTITY\n## BEGIN_ADAPTIVE_SECTION\n## END_ADAPTIVE_SECTION\n");
    byte[] promptBefore = Files.readAllBytes(prompt);
    assertEquals(
        1,
        run(
            Stages.defaults()
                .withPrompt(
                    (pass, diagnosis, note) -> {
                      throw new IOException("No space left on device");
                    }),
            events("a.jsonl", 0, 30),
            bank,
            "--prompt",
            prompt.toString(),
            "--repo",
            tmp.resolve("no-repo").toString()));
    JsonNode r = report();
    assertEquals("internal.io", r.at("/internal_thorns/0/type").asText());
    assertEquals("prompt_done", r.at("/internal_thorns/0/stage").asText());
    assertEquals("failed", r.at("/prompt/status").asText());
    assertEquals("skipped", r.at("/code/status").asText());
    assertFalse(r.at("/rbt/provisional").asBoolean());
    assertTrue(Files.exists(bank.resolve(EmoBank.STATE)));
    assertArrayEquals(promptBefore, Files.readAllBytes(prompt));
  }
}
