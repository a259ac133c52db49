package dev.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.observe.EventJson;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fit} and {@code --model} end to end on generated sessions: what cross-validation measures,
 * what a model explains, and what bad input gets.
 */
class FitCommandTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String[] WORDS = {
    "order", "parcel", "address", "refund", "window", "kettle", "mug", "towel", "colour", "size",
    "today", "monday", "invoice", "receipt", "account", "card"
  };

  @TempDir Path tmp;

  private ByteArrayOutputStream out = new ByteArrayOutputStream();
  private ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    out = new ByteArrayOutputStream();
    err = new ByteArrayOutputStream();
    return Main.run(
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        args);
  }

  private static String line(String session, int n, String kind, String status, String payload) {
    return "{\"ts\":\"2026-11-22T10:"
        + String.format("%02d:%02d", n / 60 % 60, n % 60)
        + "Z\",\"kind\":\""
        + kind
        + "\",\"status\":\""
        + status
        + "\",\"payload\":"
        + payload
        + ",\"agent\":\"shop\",\"session\":\""
        + session
        + "\",\"turn\":\""
        + session
        + "-t1\"}";
  }

  /**
   * {@code n} sessions: a user message and an answer of random words, and a refund call. With
   * {@code signal}, a failed session's answer also holds "could not" and its refund fails; a good
   * one's answer says "all done".
   */
  private Path events(int n, boolean signal, List<Boolean> failed, long seed) throws Exception {
    Random r = new Random(seed);
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String s = "s" + i;
      boolean f = failed.get(i);
      lines.add(line(s, 0, "turn.user", "ok", "{\"text\":\"" + words(r) + "\"}"));
      lines.add(
          line(
              s,
              1,
              "tool.refund_order",
              signal && f ? "fail" : "ok",
              "{\"tool\":\"refund_order\"}"));
      String answer = words(r) + (signal ? (f ? " could not" : " all done") : "");
      lines.add(line(s, 2, "turn.answer", "ok", "{\"text\":\"" + answer + "\"}"));
    }
    Path file = tmp.resolve("events-" + seed + ".jsonl");
    Files.write(file, lines);
    return file;
  }

  private static String words(Random r) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 6; i++) {
      sb.append(i > 0 ? " " : "").append(WORDS[r.nextInt(WORDS.length)]);
    }
    return sb.toString();
  }

  private Path labels(List<Boolean> failed, List<String> groups) throws Exception {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < failed.size(); i++) {
      lines.add(
          "{\"session\":\"s"
              + i
              + "\",\"failed\":"
              + failed.get(i)
              + (groups == null ? "" : ",\"group\":\"" + groups.get(i) + "\"")
              + "}");
    }
    Path file = tmp.resolve("labels-" + lines.hashCode() + ".jsonl");
    Files.write(file, lines);
    return file;
  }

  private static List<Boolean> alternating(int n) {
    List<Boolean> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(i % 2 == 0);
    }
    return out;
  }

  private JsonNode fit(Path events, Path labels, Path dir) throws Exception {
    int exit =
        run(
            "fit",
            "--events",
            events.toString(),
            "--labels",
            labels.toString(),
            "--out",
            dir.toString());
    assertEquals(
        0, exit, out.toString(StandardCharsets.UTF_8) + err.toString(StandardCharsets.UTF_8));
    return JSON.readTree(dir.resolve("fit.json").toFile());
  }

  @Test
  void separableSessionsGiveAHighCvAurocAndShuffledLabelsOneNearAHalf() throws Exception {
    List<Boolean> failed = alternating(80);
    JsonNode separable = fit(events(80, true, failed, 1), labels(failed, null), tmp.resolve("a"));
    assertTrue(separable.get("cv_auroc").asDouble() > 0.95, separable.toString());
    assertEquals(80, separable.get("sessions").asInt());
    assertEquals(40, separable.get("failed").asInt());
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains("fold 5 of 5"), "progress lines on stderr");

    List<Boolean> shuffled = new ArrayList<>(failed);
    java.util.Collections.shuffle(shuffled, new Random(7));
    // the same sessions (same words and calls, made with the separable labels) under labels that no
    // longer match
    JsonNode noise = fit(events(80, false, failed, 2), labels(shuffled, null), tmp.resolve("b"));
    double auroc = noise.get("cv_auroc").asDouble();
    assertTrue(auroc > 0.3 && auroc < 0.7, "shuffled labels: " + auroc);
  }

  @Test
  void whenTheGroupAloneDecidesTheLabelGroupDisjointFoldsGiveAboutAHalf() throws Exception {
    // each of 20 groups has its own word, and all its sessions share one label: a model that learns
    // the words
    // scores perfectly on folds that split groups, and knows nothing on groups it never saw
    int n = 120;
    List<Boolean> failed = new ArrayList<>();
    List<String> groups = new ArrayList<>();
    List<String> lines = new ArrayList<>();
    Random r = new Random(3);
    for (int i = 0; i < n; i++) {
      int g = i % 20;
      failed.add(g % 2 == 0);
      groups.add("task-" + g);
      String s = "s" + i;
      lines.add(line(s, 0, "turn.user", "ok", "{\"text\":\"topic" + g + " " + words(r) + "\"}"));
      lines.add(line(s, 1, "turn.answer", "ok", "{\"text\":\"" + words(r) + "\"}"));
    }
    Path events = tmp.resolve("grouped.jsonl");
    Files.write(events, lines);
    JsonNode grouped = fit(events, labels(failed, groups), tmp.resolve("g"));
    double auroc = grouped.get("cv_auroc").asDouble();
    assertEquals(20, grouped.get("groups").asInt());
    assertTrue(auroc > 0.25 && auroc < 0.75, "group-disjoint: " + auroc);
    JsonNode leaky = fit(events, labels(failed, null), tmp.resolve("l"));
    assertTrue(
        leaky.get("cv_auroc").asDouble() > 0.7, "without groups the topic words leak: " + leaky);
  }

  @Test
  void aModelWrittenAndReadBackScoresIdenticallyAndExplainsByTurn() throws Exception {
    List<Boolean> failed = alternating(60);
    Path events = events(60, true, failed, 4);
    Path labels = labels(failed, null);
    fit(events, labels, tmp.resolve("m"));
    Path model = tmp.resolve("m/model.json");
    // scored twice through the file: once as written, once after a read-and-write round trip
    Path again = tmp.resolve("again.json");
    Files.writeString(
        again,
        JSON.writerWithDefaultPrettyPrinter().writeValueAsString(JSON.readTree(model.toFile())));
    double[] first = scores(events, labels, model, "e1");
    double[] second = scores(events, labels, again, "e2");
    assertArrayEquals(first, second);
    assertTrue(
        out.toString(StandardCharsets.UTF_8).contains("in-sample"),
        out.toString(StandardCharsets.UTF_8));

    // one failed session: a reason from the words of its answer points at its turn and its answer's
    // line
    Path one = tmp.resolve("one.jsonl");
    Files.write(one, Files.readAllLines(events).subList(0, 3));
    Path reportDir = tmp.resolve("r");
    assertEquals(
        0,
        run(
            "run",
            "--events",
            one.toString(),
            "--model",
            model.toString(),
            "--out",
            reportDir.toString(),
            "--emobank",
            tmp.resolve("bank").toString(),
            "--now",
            "2026-11-22T10:05:00Z"),
        err.toString(StandardCharsets.UTF_8));
    JsonNode alarm = JSON.readTree(reportDir.resolve("report.json").toFile()).get("alarm");
    assertEquals("s0", alarm.at("/sessions/0/session").asText());
    assertTrue(alarm.has("rules_score"));
    JsonNode couldNot = null;
    for (JsonNode reason : alarm.get("reasons")) {
      if (reason.get("source").asText().startsWith("a:could")) {
        couldNot = reason;
      }
    }
    assertTrue(couldNot != null, alarm.toString());
    assertEquals("s0-t1", couldNot.at("/turns/0").asText());
    assertEquals(3, couldNot.at("/refs/0").asInt(), "the answer is the session's third line");
    assertTrue(Files.readString(reportDir.resolve("report.md")).contains("What the model saw"));
    String html = Files.readString(reportDir.resolve("report.html"));
    assertTrue(
        html.contains("<h2>What the model saw</h2>")
            && html.contains("<code id=\"model-session\">s0</code>"),
        "report.html shows the worst session and its reasons");
    assertTrue(html.contains("a:could"), "the word feature's reason is listed in report.html");
  }

  private double[] scores(Path events, Path labels, Path model, String dir) throws Exception {
    assertEquals(
        0,
        run(
            "eval",
            "--events",
            events.toString(),
            "--labels",
            labels.toString(),
            "--model",
            model.toString(),
            "--out",
            tmp.resolve(dir).toString()),
        err.toString(StandardCharsets.UTF_8));
    return Files.readAllLines(tmp.resolve(dir).resolve("eval_sessions.jsonl")).stream()
        .mapToDouble(
            l -> {
              try {
                return JSON.readTree(l).get("score").asDouble();
              } catch (Exception e) {
                throw new AssertionError(e);
              }
            })
        .toArray();
  }

  @Test
  void aDamagedOrForeignModelExitsTwoNamingTheFile() throws Exception {
    Path events = events(4, true, alternating(4), 5);
    Path broken = tmp.resolve("broken.json");
    Files.writeString(broken, "{\"format_version\": 1, \"features\": ");
    assertEquals(
        2,
        run(
            "run",
            "--events",
            events.toString(),
            "--model",
            broken.toString(),
            "--out",
            tmp.resolve("o").toString(),
            "--emobank",
            tmp.resolve("bank").toString()));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains("model file " + broken + " is damaged"),
        err.toString(StandardCharsets.UTF_8));
    Path future = tmp.resolve("future.json");
    Files.writeString(future, "{\"format_version\": 99}");
    assertEquals(
        2,
        run(
            "eval",
            "--events",
            events.toString(),
            "--labels",
            labels(alternating(4), null).toString(),
            "--model",
            future.toString(),
            "--out",
            tmp.resolve("o").toString()));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("is of format version 99"));
  }

  @Test
  void aQueueGivesTheSameFitAsItsEventsExported() throws Exception {
    List<Boolean> failed = alternating(30);
    Path events = events(30, true, failed, 12);
    Path labels = labels(failed, null);
    Path queue = tmp.resolve("queue");
    try (ChronicleQueue q = EventQueues.openForWriting(queue)) {
      ExcerptAppender appender = q.createAppender();
      for (String line : Files.readAllLines(events)) {
        EventWire.append(appender, EventJson.read(line, ZoneOffset.UTC).event());
      }
    }
    JsonNode fromFile = fit(events, labels, tmp.resolve("file"));
    assertEquals(
        0,
        run(
            "fit",
            "--queue",
            queue.toString(),
            "--labels",
            labels.toString(),
            "--out",
            tmp.resolve("queue-out").toString()),
        err.toString(StandardCharsets.UTF_8));
    JsonNode fromQueue = JSON.readTree(tmp.resolve("queue-out/fit.json").toFile());
    assertEquals(fromFile.get("cv_auroc"), fromQueue.get("cv_auroc"));
    assertEquals(fromFile.get("toward_failure"), fromQueue.get("toward_failure"));
    assertEquals(
        2, run("fit", "--queue", tmp.resolve("none").toString(), "--labels", labels.toString()));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains(tmp.resolve("none").toString()));
  }

  @Test
  void aModelReadingAFamilyTheRulesSwitchOffExitsTwoNamingIt() throws Exception {
    List<Boolean> failed = alternating(20);
    Path events = events(20, true, failed, 10);
    fit(events, labels(failed, null), tmp.resolve("f"));
    Path rules = tmp.resolve("rules.json");
    Files.writeString(rules, "{\"model\": {\"features\": {\"user_words\": false}}}");
    Path model = tmp.resolve("f/model.json");
    assertEquals(
        2,
        run(
            "run",
            "--events",
            events.toString(),
            "--rules",
            rules.toString(),
            "--model",
            model.toString(),
            "--out",
            tmp.resolve("o").toString(),
            "--emobank",
            tmp.resolve("bank").toString()));
    assertTrue(
        err.toString(StandardCharsets.UTF_8)
            .contains(
                "model file "
                    + model
                    + " was fitted with feature families the current rules switch off: [user_words]"),
        err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void oneClassOrTooFewSessionsForTheFoldsExitTwoWithTheCounts() throws Exception {
    List<Boolean> allFailed = new ArrayList<>(List.of(true, true, true, true, true, true));
    Path events = events(6, true, allFailed, 6);
    assertEquals(
        2,
        run(
            "fit",
            "--events",
            events.toString(),
            "--labels",
            labels(allFailed, null).toString(),
            "--out",
            tmp.resolve("x").toString()));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains("6 failed, 0 good"),
        err.toString(StandardCharsets.UTF_8));
    assertEquals(
        2,
        run(
            "fit",
            "--events",
            events(6, true, alternating(6), 8).toString(),
            "--labels",
            labels(alternating(6), null).toString(),
            "--out",
            tmp.resolve("y").toString()));
    assertTrue(err.toString(StandardCharsets.UTF_8).contains("3 failed, 3 good"));
  }

  @Test
  void withoutAModelTheReportsAreTheRulesAlone() throws Exception {
    List<Boolean> failed = alternating(10);
    Path events = events(10, true, failed, 9);
    Path a = tmp.resolve("plain-a");
    Path b = tmp.resolve("plain-b");
    for (Path dir : List.of(a, b)) {
      assertEquals(
          0,
          run(
              "run",
              "--events",
              events.toString(),
              "--out",
              dir.toString(),
              "--emobank",
              dir.resolve("bank").toString(),
              "--now",
              "2026-11-22T10:05:00Z"),
          err.toString(StandardCharsets.UTF_8));
    }
    JsonNode alarm = JSON.readTree(a.resolve("report.json").toFile()).get("alarm");
    assertEquals(List.of("score", "level", "reasons"), iterable(alarm.fieldNames()));
    assertTrue(!Files.readString(a.resolve("report.md")).contains("What the model saw"));
    assertTrue(!Files.readString(a.resolve("report.html")).contains("What the model saw"));
    assertEquals(
        Files.readString(a.resolve("report.md")).replace(a.toString(), "DIR"),
        Files.readString(b.resolve("report.md")).replace(b.toString(), "DIR"));
  }

  private static List<String> iterable(java.util.Iterator<String> it) {
    List<String> out = new ArrayList<>();
    it.forEachRemaining(out::add);
    return out;
  }
}
