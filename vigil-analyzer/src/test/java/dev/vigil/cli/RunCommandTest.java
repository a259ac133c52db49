package dev.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.emobank.EmoBank;
import dev.vigil.emobank.EmotionRow;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventJson;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import dev.vigil.observe.ExcerptEvents;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunCommandTest {
  private static final Instant T0 = Instant.parse("2026-11-22T08:00:00Z");
  private static final String NOW = "2026-11-22T12:00:00Z";

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

  private int pass(String inputFlag, Path input, Path bank) {
    return run(
        "run",
        inputFlag,
        input.toString(),
        "--emobank",
        bank.toString(),
        "--out",
        tmp.resolve("out").toString(),
        "--now",
        NOW);
  }

  /** Event i of a varied trace: failures, delays, successes, a minute apart. */
  private static Event event(int i) {
    String[] statuses = {"ok", "fail", "delay", "ok", "timeout", "ok", "complaint"};
    String status = statuses[i % statuses.length];
    var payload = EventJson.mapper().createObjectNode().put("i", i);
    if (status.equals("delay")) {
      payload.put("delayed_by_sec", 60 * (i % 12));
    }
    return Event.of(T0.plusSeconds(60L * i), "tool.t" + (i % 3), status, payload);
  }

  private Path jsonl(String name, int from, int to) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int i = from; i < to; i++) {
      sb.append(EventJson.write(event(i))).append('\n');
    }
    return Files.writeString(tmp.resolve(name), sb.toString());
  }

  private static Map<String, byte[]> snapshotOf(Path dir) throws IOException {
    Map<String, byte[]> files = new TreeMap<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path f : (Iterable<Path>) s::iterator) {
        files.put(f.getFileName().toString(), Files.readAllBytes(f));
      }
    }
    return files;
  }

  private JsonNode report() throws IOException {
    return new ObjectMapper().readTree(tmp.resolve("out/report.json").toFile());
  }

  @Test
  void theSameFileTwiceDepositsEveryEventOnce() throws Exception {
    Path file = jsonl("a.jsonl", 0, 120);
    Path bank = tmp.resolve("bank");
    assertEquals(0, pass("--events", file, bank), err.toString(StandardCharsets.UTF_8));
    assertEquals(120, report().get("events_deposited").asInt());
    byte[] rows = Files.readAllBytes(bank.resolve(EmoBank.EMOTIONS));

    assertEquals(0, pass("--events", file, bank), err.toString(StandardCharsets.UTF_8));
    assertEquals(0, report().get("events_deposited").asInt());
    assertEquals(120, report().get("events_already_deposited").asInt());
    assertArrayEquals(rows, Files.readAllBytes(bank.resolve(EmoBank.EMOTIONS)));
  }

  @Test
  void overlappingFilesEndAsOneUninterruptedPass() throws Exception {
    Path bank = tmp.resolve("bank");
    assertEquals(
        0, pass("--events", jsonl("a.jsonl", 0, 80), bank), err.toString(StandardCharsets.UTF_8));
    assertEquals(
        0, pass("--events", jsonl("b.jsonl", 50, 140), bank), err.toString(StandardCharsets.UTF_8));
    assertEquals(60, report().get("events_deposited").asInt());

    Path oneBank = tmp.resolve("one");
    assertEquals(
        0,
        pass("--events", jsonl("all.jsonl", 0, 140), oneBank),
        err.toString(StandardCharsets.UTF_8));
    assertArrayEquals(
        Files.readAllBytes(oneBank.resolve(EmoBank.EMOTIONS)),
        Files.readAllBytes(bank.resolve(EmoBank.EMOTIONS)));
  }

  @Test
  void aQueueReadInTwoRunsEndsAsOneUninterruptedPass() throws Exception {
    Path queue = tmp.resolve("queue");
    Path bank = tmp.resolve("bank");
    try (ChronicleQueue q = EventQueues.openForWriting(queue)) {
      ExcerptAppender a = q.createAppender();
      for (int i = 0; i < 70; i++) {
        EventWire.append(a, event(i));
      }
    }
    assertEquals(0, pass("--queue", queue, bank), err.toString(StandardCharsets.UTF_8));
    assertEquals(70, report().get("events_deposited").asInt());
    try (ChronicleQueue q = EventQueues.openForWriting(queue)) {
      ExcerptAppender a = q.createAppender();
      for (int i = 70; i < 140; i++) {
        EventWire.append(a, event(i));
      }
    }
    assertEquals(0, pass("--queue", queue, bank), err.toString(StandardCharsets.UTF_8));
    assertEquals(
        140, report().get("events_read").asInt(), "the window is read whole, for the detectors");
    assertEquals(
        70, report().get("events_deposited").asInt(), "only the new excerpts are deposited");
    assertEquals(70, report().get("events_already_deposited").asInt());
    assertEquals(0, pass("--queue", queue, bank), err.toString(StandardCharsets.UTF_8));
    assertEquals(0, report().get("events_deposited").asInt());

    Path oneBank = tmp.resolve("one");
    assertEquals(0, pass("--queue", queue, oneBank), err.toString(StandardCharsets.UTF_8));
    assertArrayEquals(
        Files.readAllBytes(oneBank.resolve(EmoBank.EMOTIONS)),
        Files.readAllBytes(bank.resolve(EmoBank.EMOTIONS)));
  }

  /**
   * Appends events {@code from} to {@code to} as batches of {@code size} (the agent's writer's).
   */
  private static void appendBatches(Path queue, int from, int to, int size) {
    try (ChronicleQueue q = EventQueues.openForWriting(queue)) {
      ExcerptAppender a = q.createAppender();
      for (int i = from; i < to; i += size) {
        List<Event> batch = new ArrayList<>();
        for (int j = i; j < Math.min(to, i + size); j++) {
          batch.add(event(j));
        }
        ExcerptEvents.append(a, batch);
      }
    }
  }

  /**
   * Excerpts of several events (docs/DESIGN.md#the-queue): each event deposited once across runs,
   * and the newest {@code --limit} found inside a batch.
   */
  @Test
  void aQueueOfBatchesReadInTwoRunsDepositsEachEventOnceAndItsNewestAreFoundInsideABatch()
      throws Exception {
    Path queue = tmp.resolve("queue");
    Path bank = tmp.resolve("bank");
    appendBatches(queue, 0, 70, 32);
    assertEquals(0, pass("--queue", queue, bank), err.toString(StandardCharsets.UTF_8));
    assertEquals(70, report().get("events_deposited").asInt());
    appendBatches(queue, 70, 140, 32);
    assertEquals(0, pass("--queue", queue, bank), err.toString(StandardCharsets.UTF_8));
    assertEquals(140, report().get("events_read").asInt());
    assertEquals(70, report().get("events_deposited").asInt());
    assertEquals(70, report().get("events_already_deposited").asInt());
    assertEquals(0, pass("--queue", queue, bank), err.toString(StandardCharsets.UTF_8));
    assertEquals(0, report().get("events_deposited").asInt());

    Path newest = tmp.resolve("newest");
    assertEquals(
        0,
        run(
            "run",
            "--queue",
            queue.toString(),
            "--emobank",
            newest.toString(),
            "--out",
            tmp.resolve("out").toString(),
            "--now",
            NOW,
            "--limit",
            "10"),
        err.toString(StandardCharsets.UTF_8));
    assertEquals(10, report().get("events_deposited").asInt());
    assertEquals(10, report().get("events_used").asInt(), report().toString());

    // events of one instant: only their places in their excerpts tell the newest apart
    Path sameTime = tmp.resolve("same-time");
    try (ChronicleQueue q = EventQueues.openForWriting(sameTime)) {
      ExcerptAppender a = q.createAppender();
      for (int i = 0; i < 40; i += 16) {
        List<Event> batch = new ArrayList<>();
        for (int j = i; j < Math.min(40, i + 16); j++) {
          batch.add(Event.of(T0, "tool.t", "ok"));
        }
        ExcerptEvents.append(a, batch);
      }
    }
    assertEquals(
        0,
        run(
            "run",
            "--queue",
            sameTime.toString(),
            "--emobank",
            tmp.resolve("same-time-bank").toString(),
            "--out",
            tmp.resolve("out").toString(),
            "--now",
            NOW,
            "--limit",
            "10"),
        err.toString(StandardCharsets.UTF_8));
    assertEquals(10, report().get("events_used").asInt(), report().toString());
  }

  @Test
  void aPassThatDiesBeforeItsCommitLeavesNoTrace() throws Exception {
    Path file = jsonl("a.jsonl", 0, 140);
    Path bank = tmp.resolve("bank");
    assertEquals(
        0,
        pass("--events", jsonl("first.jsonl", 0, 40), bank),
        err.toString(StandardCharsets.UTF_8));
    // a pass that appends rows and dies before committing
    try (EmoBank b = EmoBank.open(bank)) {
      b.deposit(42L, EmotionRow.of(T0.plusSeconds(3000), "frustration", 0.9, -0.7, "x:fail"));
    }
    long committed =
        new ObjectMapper()
            .readTree(bank.resolve(EmoBank.CHECKPOINT).toFile())
            .get("emotions_bytes")
            .asLong();
    assertTrue(Files.size(bank.resolve(EmoBank.EMOTIONS)) > committed);

    assertEquals(0, pass("--events", file, bank), err.toString(StandardCharsets.UTF_8));
    assertTrue(
        Files.readString(bank.resolve("recovered-2.jsonl")).contains("x:fail"),
        "the uncommitted rows are kept aside, not lost");

    Path oneBank = tmp.resolve("one");
    assertEquals(
        0,
        pass("--events", jsonl("f1.jsonl", 0, 40), oneBank),
        err.toString(StandardCharsets.UTF_8));
    assertEquals(0, pass("--events", file, oneBank), err.toString(StandardCharsets.UTF_8));
    assertArrayEquals(
        Files.readAllBytes(oneBank.resolve(EmoBank.EMOTIONS)),
        Files.readAllBytes(bank.resolve(EmoBank.EMOTIONS)));
  }

  @Test
  void aHundredThousandLinesWithOnePercentGarbageGiveExactSkipCounts() throws Exception {
    Path file = tmp.resolve("big.jsonl");
    List<String> lines = new ArrayList<>(100_000);
    for (int i = 0; i < 100_000; i++) {
      if (i % 100 == 7) {
        switch ((i / 100) % 4) {
          case 0 -> lines.add("this is not json {");
          case 1 -> lines.add("{\"ts\":\"2026-11-22T09:00:00Z\",\"kind\":\"k\",\"payload\":{}}");
          case 2 ->
              lines.add("{\"ts\":\"tomorrow\",\"kind\":\"k\",\"status\":\"ok\",\"payload\":{}}");
          default ->
              lines.add(
                  "{\"ts\":\"2026-11-22T09:00:00Z\",\"kind\":\"k\",\"status\":\"ok\",\"payload\":7}");
        }
      } else {
        Event e = Event.of(T0.plusMillis(100L * i), "tool.t" + (i % 5), i % 9 == 0 ? "fail" : "ok");
        lines.add(EventJson.write(e));
      }
    }
    Files.write(file, lines);
    assertEquals(
        0,
        run(
            "run",
            "--events",
            file.toString(),
            "--emobank",
            tmp.resolve("bank").toString(),
            "--out",
            tmp.resolve("out").toString(),
            "--now",
            NOW,
            "--limit",
            "200000"),
        err.toString(StandardCharsets.UTF_8));
    JsonNode r = report();
    assertEquals(99_000, r.get("events_read").asInt());
    assertEquals(250, r.at("/skipped/not_json").asInt());
    assertEquals(250, r.at("/skipped/missing_field").asInt());
    assertEquals(250, r.at("/skipped/bad_ts").asInt());
    assertEquals(250, r.at("/skipped/bad_field").asInt());
    assertEquals(99_000, r.get("events_used").asInt());
  }

  @Test
  void usesOnlyTheNewestLimitEventsOfTheWindow() throws Exception {
    Path file = jsonl("a.jsonl", 0, 300); // 08:00 .. 12:59, now is 12:00
    assertEquals(
        0,
        run(
            "run",
            "--events",
            file.toString(),
            "--emobank",
            tmp.resolve("bank").toString(),
            "--out",
            tmp.resolve("out").toString(),
            "--now",
            NOW,
            "--window-hours",
            "2",
            "--limit",
            "50"));
    JsonNode r = report();
    assertEquals(300, r.get("events_read").asInt());
    assertEquals(121, r.get("events_in_window").asInt()); // 10:00 .. 12:00 inclusive
    assertEquals(50, r.get("events_used").asInt());
  }

  @Test
  void missingInputExitsTwoNamingThePath() {
    Path missing = tmp.resolve("nope.jsonl");
    assertEquals(
        2,
        run(
            "run",
            "--events",
            missing.toString(),
            "--emobank",
            tmp.resolve("bank").toString(),
            "--out",
            tmp.resolve("out").toString()));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains(missing.toString()),
        err.toString(StandardCharsets.UTF_8));
    assertEquals(
        2,
        run(
            "run",
            "--queue",
            tmp.resolve("noq").toString(),
            "--emobank",
            tmp.resolve("bank").toString()));
    // a one-shot pass has nothing to wait for: unlike watch, run names the missing queue and exits
    assertTrue(
        err.toString(StandardCharsets.UTF_8)
            .contains("queue directory " + tmp.resolve("noq") + " does not exist"),
        err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void aCorruptRowIsAnInternalThornWithAProvisionalDiagnosisAndAnUntouchedBank() throws Exception {
    Path file = jsonl("a.jsonl", 0, 40);
    Path bank = tmp.resolve("bank");
    assertEquals(0, pass("--events", file, bank), err.toString(StandardCharsets.UTF_8));
    JsonNode first = report();
    List<String> good = Files.readAllLines(bank.resolve(EmoBank.EMOTIONS));
    List<String> rows = new ArrayList<>(good);
    rows.set(2, rows.get(2).replaceFirst("\"intensity\":[0-9.]+", "\"intensity\":\"very high\""));
    Files.write(bank.resolve(EmoBank.EMOTIONS), rows);
    Map<String, byte[]> before = snapshotOf(bank);

    assertEquals(1, pass("--events", jsonl("b.jsonl", 40, 80), bank));
    assertTrue(
        err.toString(StandardCharsets.UTF_8)
            .contains("internal thorn internal.schema_conflict at stage eb_updated"),
        err.toString(StandardCharsets.UTF_8));
    JsonNode r = report();
    JsonNode thorn = r.get("internal_thorns").get(0);
    assertEquals(1, r.get("internal_thorns").size());
    assertEquals("internal.schema_conflict", thorn.get("type").asText());
    assertEquals("eb_updated", thorn.get("stage").asText());
    assertEquals("update_eb_from_logs", thorn.get("step").asText());
    assertEquals("dev.vigil.emobank.BankCorruptException", thorn.get("exception").asText());
    assertTrue(
        thorn
            .get("message")
            .asText()
            .contains(bank.resolve(EmoBank.EMOTIONS) + " line 3: intensity"),
        thorn.toString());
    assertTrue(
        thorn.get("frames").get(0).asText().startsWith("dev.vigil.emobank."), thorn.toString());
    assertTrue(
        thorn.get("suggestion").asText().contains(bank.resolve(EmoBank.EMOTIONS) + " line 3"),
        thorn.toString());
    assertTrue(
        thorn.get("suggestion").asText().contains("(read at dev.vigil.emobank."), thorn.toString());
    // provisional: the top thorns of the last snapshot, and every stage after the failed one still
    // ran
    assertTrue(r.at("/rbt/provisional").asBoolean(), r.toString());
    assertEquals(
        first.at("/rbt/top_thorns/0/cause").asText(), r.at("/rbt/top_thorns/0/cause").asText());
    assertEquals(first.at("/snapshot/mood").asText(), r.at("/snapshot/mood").asText());
    assertEquals("diff_done", r.get("stage").asText());
    assertTrue(
        r.get("fallback").asText().startsWith("provisional diagnosis from the last snapshot"),
        r.toString());
    Map<String, byte[]> after = snapshotOf(bank);
    assertEquals(before.keySet(), after.keySet());
    before.forEach((name, bytes) -> assertArrayEquals(bytes, after.get(name), name));

    // the fault removed, the next pass runs cleanly and says the thorn is resolved
    Files.write(bank.resolve(EmoBank.EMOTIONS), good);
    assertEquals(
        0, pass("--events", jsonl("b.jsonl", 40, 80), bank), err.toString(StandardCharsets.UTF_8));
    r = report();
    assertEquals(0, r.get("internal_thorns").size());
    assertEquals("internal.schema_conflict", r.at("/internal_thorns_resolved/0/type").asText());
    assertEquals(40, r.get("events_deposited").asInt());
    assertTrue(
        out.toString(StandardCharsets.UTF_8)
            .contains("internal thorn resolved: internal.schema_conflict"),
        out.toString(StandardCharsets.UTF_8));
    assertTrue(!r.at("/rbt/provisional").asBoolean());
  }

  @Test
  void aForeignFileInTheBankIsAnInternalThornAndStaysAlone() throws Exception {
    Path bank = Files.createDirectories(tmp.resolve("bank"));
    Files.writeString(bank.resolve("notes.txt"), "mine");
    assertEquals(1, pass("--events", jsonl("a.jsonl", 0, 10), bank));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains("notes.txt is not an EmoBank file"),
        err.toString(StandardCharsets.UTF_8));
    assertEquals("internal.BankCorruptException", report().at("/internal_thorns/0/type").asText());
    assertTrue(report().at("/rbt/provisional").asBoolean());
    try (Stream<Path> files = Files.list(bank)) {
      assertEquals(List.of("notes.txt"), files.map(p -> p.getFileName().toString()).toList());
    }
  }

  @Test
  void writesTheArtifactsAndASummary() throws Exception {
    assertEquals(
        0,
        pass("--events", jsonl("a.jsonl", 0, 100), tmp.resolve("bank")),
        err.toString(StandardCharsets.UTF_8));
    assertTrue(
        out.toString(StandardCharsets.UTF_8).contains("thorns"),
        out.toString(StandardCharsets.UTF_8));
    JsonNode r = report();
    for (String field :
        List.of(
            "now",
            "window_hours",
            "events_used",
            "skipped",
            "stage",
            "snapshot",
            "rbt",
            "detectors",
            "internal_thorns",
            "prompt",
            "proposals")) {
      assertTrue(r.has(field), field);
    }
    assertEquals("2026-11-22T12:00:00.000000Z", r.get("now").asText());
    assertTrue(r.at("/rbt/counts/thorns").asInt() > 0);
    assertTrue(
        Files.readString(tmp.resolve("out/report.md")).contains("## Roses, buds and thorns"));
    assertEquals(1, Files.readAllLines(tmp.resolve("out/audit.jsonl")).size());
    assertTrue(Files.exists(tmp.resolve("bank/state.json")));
  }

  @Test
  void retentionCompactsOldRowsIntoEpisodeTotalsAndKeepsTheBankBounded() throws Exception {
    Path bank = tmp.resolve("bank");
    Path old = jsonl("old.jsonl", 0, 140); // 2026-11-22 08:00 .. 10:19
    assertEquals(0, pass("--events", old, bank), err.toString(StandardCharsets.UTF_8));
    List<String> before = Files.readAllLines(bank.resolve(EmoBank.EMOTIONS));
    int liveBefore;
    try (EmoBank b = EmoBank.open(bank)) {
      liveBefore = b.liveRows().size();
    }

    // ten days later, new events: the old rows are past the 7-day retention
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 5; i++) {
      sb.append(
              EventJson.write(
                  Event.of(
                      Instant.parse("2026-12-02T11:00:00Z").plusSeconds(i * 3600L),
                      "tool.new",
                      "fail")))
          .append('\n');
    }
    Path fresh = Files.writeString(tmp.resolve("new.jsonl"), sb.toString());
    assertEquals(
        0,
        run(
            "run",
            "--events",
            fresh.toString(),
            "--emobank",
            bank.toString(),
            "--out",
            tmp.resolve("out").toString(),
            "--now",
            "2026-12-02T16:00:00Z"),
        err.toString(StandardCharsets.UTF_8));

    List<String> after = Files.readAllLines(bank.resolve(EmoBank.EMOTIONS));
    assertEquals(5, after.size(), "only the recent rows stay in emotions.jsonl");
    assertTrue(after.stream().allMatch(l -> l.contains("tool.new:fail")));
    JsonNode episodes = new ObjectMapper().readTree(bank.resolve(EmoBank.EPISODES).toFile());
    assertEquals(liveBefore, episodes.get("compacted_rows").asInt());
    long rows = 0;
    for (JsonNode e : (Iterable<JsonNode>) () -> episodes.get("episodes").elements()) {
      rows += e.get("rows").asLong();
    }
    assertEquals(liveBefore, rows);
    assertTrue(before.size() >= liveBefore);

    // the compacted bank reopens cleanly and still deposits exactly once
    assertEquals(
        0,
        run(
            "run",
            "--events",
            fresh.toString(),
            "--emobank",
            bank.toString(),
            "--out",
            tmp.resolve("out").toString(),
            "--now",
            "2026-12-02T16:00:00Z"),
        err.toString(StandardCharsets.UTF_8));
    assertEquals(0, report().get("events_deposited").asInt());
    assertEquals(5, Files.readAllLines(bank.resolve(EmoBank.EMOTIONS)).size());
  }

  /**
   * Three reminders whose "Reminder set" toast comes 97 s before the receipt, one naive receipt
   * time.
   */
  private Path prematureToasts() throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 3; i++) {
      Instant t = Instant.parse("2026-11-22T10:00:00Z").plusSeconds(600L * i);
      String id = "{\"reminder_id\":\"r-" + i + "\"}";
      sb.append("{\"ts\":\"")
          .append(t)
          .append("\",\"kind\":\"reminder.toast\",\"status\":\"ok\",\"payload\":")
          .append(id)
          .append("}\n");
      String receipt =
          i == 2
              ? t.plusSeconds(97).toString().replace("T", " ").replace("Z", "")
              : t.plusSeconds(97).toString();
      sb.append("{\"ts\":\"")
          .append(receipt)
          .append("\",\"kind\":\"reminder.receipt\",\"status\":\"ok\",")
          .append("\"payload\":")
          .append(id)
          .append("}\n");
    }
    return Files.writeString(tmp.resolve("toasts.jsonl"), sb.toString());
  }

  @Test
  void detectorsAreReportedAndTheirEvidenceReachesThePromptRules() throws Exception {
    Path bank = tmp.resolve("bank");
    assertEquals(
        0, pass("--events", prematureToasts(), bank), err.toString(StandardCharsets.UTF_8));
    JsonNode r = report();
    assertEquals(
        List.of(
            "premature_success",
            "latency",
            "timestamp_inconsistent",
            "tool_call_explosion",
            "failure_plateau",
            "unconfirmed_write",
            "claim_without_action",
            "user_correction",
            "write_after_refusal"),
        r.get("detectors").findValuesAsText("name"));
    assertEquals(3, r.at("/detectors/0/count").asInt());
    assertEquals(97.0, r.at("/detectors/0/evidence/mean_receipt_lag_sec").asDouble(), 1e-9);
    assertEquals("line", r.at("/detectors/0/evidence_unit").asText());
    assertEquals(1, r.at("/detectors/2/count").asInt());
    assertEquals(4, r.get("derived_events").asInt());
    assertEquals(4, r.get("derived_events_deposited").asInt());
    assertTrue(
        r.at("/rbt/top_thorns/0/cause").asText().equals("reminder.toast.premature:fail"),
        r.toString());
    String rules = r.at("/rbt/prompt_rules_to_add").toString();
    assertTrue(rules.contains("the confirmation came 97.0 s later on average"), rules);
    assertTrue(rules.contains("1 naive and 5 zoned timestamps"), rules);
    assertTrue(
        out.toString(StandardCharsets.UTF_8).contains("detector premature_success: 3 successes"),
        out.toString(StandardCharsets.UTF_8));

    assertEquals(
        0, pass("--events", prematureToasts(), bank), err.toString(StandardCharsets.UTF_8));
    assertEquals(
        0,
        report().get("derived_events_deposited").asInt(),
        "derived events are deposited once too");

    assertEquals(
        0,
        run(
            "run",
            "--events",
            prematureToasts().toString(),
            "--emobank",
            tmp.resolve("b2").toString(),
            "--out",
            tmp.resolve("out").toString(),
            "--now",
            NOW,
            "--detectors",
            "none"),
        err.toString(StandardCharsets.UTF_8));
    assertEquals(0, report().get("detectors").size());
    assertEquals(0, report().get("derived_events").asInt());
  }

  @Test
  void thePromptStageRewritesOnlyTheAdaptiveSectionIntoOut() throws Exception {
    String core = "## BEGIN_CORE_IDENTITY\r\nYou are Robin.\r\n## END_CORE_IDENTITY\r\n";
    Path prompt =
        Files.writeString(
            tmp.resolve("prompt.txt"),
            core + "\r\n## BEGIN_ADAPTIVE_SECTION\r\n(none)\r\n## END_ADAPTIVE_SECTION\r\n");
    byte[] original = Files.readAllBytes(prompt);
    assertEquals(
        0,
        run(
            "run",
            "--events",
            prematureToasts().toString(),
            "--emobank",
            tmp.resolve("bank").toString(),
            "--out",
            tmp.resolve("out").toString(),
            "--now",
            NOW,
            "--prompt",
            prompt.toString()),
        err.toString(StandardCharsets.UTF_8));
    assertArrayEquals(original, Files.readAllBytes(prompt), "the agent's prompt is never modified");
    String written = Files.readString(tmp.resolve("out/new_prompt.txt"));
    assertTrue(written.startsWith(core), written);
    assertTrue(written.contains("the confirmation came 97.0 s later on average"), written);
    assertTrue(
        written.contains("premature_success: 3 successes"), "the reflection's note: " + written);
    assertTrue(written.contains("Generated by Vigil from pass 1"), written);
    JsonNode r = report();
    assertEquals("written", r.at("/prompt/status").asText());
    assertEquals("diff_done", r.get("stage").asText());
  }

  @Test
  void aPromptWithoutMarkersIsRefusedTheOtherStagesGoOnAndThePassExitsOne() throws Exception {
    Path prompt = Files.writeString(tmp.resolve("prompt.txt"), "You are Robin.\n");
    assertEquals(
        1,
        run(
            "run",
            "--events",
            prematureToasts().toString(),
            "--emobank",
            tmp.resolve("bank").toString(),
            "--out",
            tmp.resolve("out").toString(),
            "--now",
            NOW,
            "--prompt",
            prompt.toString()));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains("prompt.txt"),
        err.toString(StandardCharsets.UTF_8));
    JsonNode r = report();
    assertEquals("refused", r.at("/prompt/status").asText());
    assertTrue(r.at("/rbt/counts/thorns").asInt() > 0, "the diagnosis is there");
    assertTrue(Files.notExists(tmp.resolve("out/new_prompt.txt")));
  }

  /**
   * A test repository copied out of the resources, so that the run reads it from disk like a user's
   * tree.
   */
  private Path repo(String name) throws IOException {
    Path from = Path.of("src/test/resources/repos", name);
    Path to = tmp.resolve("repos").resolve(name);
    try (Stream<Path> files = Files.walk(from)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Path target = to.resolve(from.relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(target);
        } else {
          Files.copy(f, target);
        }
      }
    }
    return to;
  }

  private static Map<String, byte[]> tree(Path dir) throws IOException {
    Map<String, byte[]> files = new TreeMap<>();
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path f : (Iterable<Path>) s::iterator) {
        files.put(
            dir.relativize(f).toString(),
            Files.isRegularFile(f) ? Files.readAllBytes(f) : new byte[0]);
      }
    }
    return files;
  }

  @Test
  void aLogFullOfDelayAndFailureThornsGivesProposalsForARepoWithHotspotsAndNoneForOneWithout()
      throws Exception {
    Path withHotspots = repo("receipt-service");
    Map<String, byte[]> before = tree(withHotspots);
    assertEquals(
        0,
        run(
            "run",
            "--events",
            prematureToasts().toString(),
            "--emobank",
            tmp.resolve("b1").toString(),
            "--out",
            tmp.resolve("out").toString(),
            "--now",
            NOW,
            "--repo",
            withHotspots.toString()),
        err.toString(StandardCharsets.UTF_8));
    JsonNode r = report();
    assertEquals("diff_done", r.get("stage").asText());
    assertTrue(r.get("proposals").size() >= 1, r.toString());
    try (Stream<Path> s = Files.list(tmp.resolve("out/proposals"))) {
      assertTrue(
          s.anyMatch(
              p -> p.getFileName().toString().matches("patch_\\d{8}T\\d{6}Z(_\\d+)?\\.diff")));
    }
    Map<String, byte[]> after = tree(withHotspots);
    assertEquals(before.keySet(), after.keySet(), "nothing is written into --repo");
    before.forEach((name, bytes) -> assertArrayEquals(bytes, after.get(name), name));

    assertEquals(
        0,
        run(
            "run",
            "--events",
            prematureToasts().toString(),
            "--emobank",
            tmp.resolve("b2").toString(),
            "--out",
            tmp.resolve("out2").toString(),
            "--now",
            NOW,
            "--repo",
            repo("clean").toString()),
        err.toString(StandardCharsets.UTF_8));
    JsonNode clean = new ObjectMapper().readTree(tmp.resolve("out2/report.json").toFile());
    assertEquals(0, clean.get("proposals").size(), clean.toString());
  }

  @Test
  void anUnknownDetectorIsAUsageErrorNamingTheKnownOnes() throws Exception {
    assertEquals(
        2,
        run("run", "--events", jsonl("a.jsonl", 0, 5).toString(), "--detectors", "latency,vibes"));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains("unknown detector(s) [vibes]"),
        err.toString(StandardCharsets.UTF_8));
    assertTrue(
        err.toString(StandardCharsets.UTF_8)
            .contains("premature_success, latency, timestamp_inconsistent"),
        err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void badOptionsAreUsageErrors() throws Exception {
    Path file = jsonl("a.jsonl", 0, 5);
    assertEquals(2, run("run", "--events", file.toString(), "--now", "soon"));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains("--now \"soon\""),
        err.toString(StandardCharsets.UTF_8));
    assertEquals(2, run("run", "--events", file.toString(), "--queue", tmp.toString()));
    assertEquals(2, run("run", "--events", file.toString(), "--assume-zone", "Mars/Olympus"));
    assertEquals(
        2, run("run", "--events", file.toString(), "--rules", tmp.resolve("none.json").toString()));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains("none.json"),
        err.toString(StandardCharsets.UTF_8));
  }
}
