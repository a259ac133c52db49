package dev.vigil.watch;

import static dev.vigil.watch.LiveProcesses.PATIENCE;
import static dev.vigil.watch.LiveProcesses.depositedIn;
import static dev.vigil.watch.LiveProcesses.json;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.emobank.EmoBank;
import dev.vigil.it.ChildJvm;
import dev.vigil.observe.EventQueues;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import net.openhft.chronicle.queue.ChronicleQueue;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code watch} as users run it: the packaged analyzer in its own process, beside agents that write
 * through the real {@code -javaagent:vigil.jar} while it runs.
 */
class WatchIT {
  @TempDir Path tmp;
  Path queue;
  Path bank;
  Path out;

  @BeforeEach
  void emptyQueue() {
    queue = tmp.resolve("queue");
    bank = tmp.resolve("emobank");
    out = tmp.resolve("out");
    try (ChronicleQueue q = EventQueues.openForWriting(queue)) {
      q.createAppender()
          .close(); // an empty queue, as an agent leaves it before its first tool call
    }
  }

  private String[] args(String... triggers) {
    List<String> a =
        new ArrayList<>(
            List.of(
                "--queue",
                queue.toString(),
                "--emobank",
                bank.toString(),
                "--out",
                out.toString()));
    a.addAll(List.of(triggers));
    return a.toArray(String[]::new);
  }

  @Test
  void startedBeforeTheAgentCreatedItsQueueItWaitsThenPicksUpTheAgentsFirstEvents()
      throws Exception {
    Path later =
        tmp.resolve("later")
            .resolve("queue"); // a daemon started beside the agent, before its first call
    List<String> a = new ArrayList<>(List.of(args("--after-events", "3")));
    a.set(1, later.toString());
    try (var watch = new LiveProcesses.Watch(tmp, "w", a.toArray(String[]::new))) {
      assertTrue(
          watch.stdout().contains(" watch waiting: queue " + later + " does not exist yet"),
          watch.stdout());
      assertTrue(watch.isAlive(), watch.stderr());
      try (var agent = new LiveProcesses.Agent(later, "robin", tmp)) {
        agent.call("ok", 2);
        agent.call("fail", 1);
        await().atMost(PATIENCE).until(() -> watch.passLines().size() == 1);
        assertTrue(
            watch.passLines().get(0).contains(" pass trigger=after-events events=3 used=3 "),
            watch.passLines().get(0));
        assertEquals(3, depositedIn(bank));
      }
      assertEquals(0, watch.sigterm(), watch.stderr());
      assertTrue(
          watch.stdout().contains(" watch stopped: 3 events deposited live, "), watch.stdout());
      assertEquals("", watch.stderr());
    }
  }

  @Test
  void sigtermWhileWaitingForTheQueueExitsZero() throws Exception {
    Path never = tmp.resolve("never");
    List<String> a = new ArrayList<>(List.of(args("--every", "1m")));
    a.set(1, never.toString());
    try (var watch = new LiveProcesses.Watch(tmp, "w", a.toArray(String[]::new))) {
      assertTrue(watch.stdout().contains(" watch waiting: "), watch.stdout() + watch.stderr());
      assertEquals(0, watch.sigterm(), watch.stderr());
      assertTrue(
          watch
              .stdout()
              .contains(" watch stopped: the queue " + never + " was never created; nothing read"),
          watch.stdout());
    }
  }

  @Test
  void afterEventsFiresAfterTheNthEventAndKeepsEachPass() throws Exception {
    try (var agent = new LiveProcesses.Agent(queue, "robin", tmp);
        var watch = new LiveProcesses.Watch(tmp, "w", args("--after-events", "4"))) {
      agent.call("ok", 3);
      await().atMost(PATIENCE).until(() -> depositedIn(bank) == 3);
      assertEquals(List.of(), watch.passLines(), "three events are not four");

      agent.call("ok", 1);
      await().atMost(PATIENCE).until(() -> watch.passLines().size() == 1);
      String line = watch.passLines().get(0);
      assertTrue(line.contains(" pass trigger=after-events events=4 used=4 "), line);
      assertTrue(line.contains(" thorns=0 top_thorn=none "), line);

      JsonNode report = json(out.resolve("report.json"));
      assertEquals(4, report.get("events_used").asInt());
      assertEquals(
          0, report.get("events_deposited").asInt(), "watch deposited them as they arrived");
      assertEquals(4, report.get("events_already_deposited").asInt());
      List<Path> passes = list(out.resolve("passes"));
      assertEquals(1, passes.size());
      assertTrue(Files.exists(passes.get(0).resolve("report.json")));
      assertTrue(Files.exists(passes.get(0).resolve("report.html")));
      assertTrue(
          Files.readString(out.resolve("index.html"))
              .contains("passes/" + passes.get(0).getFileName() + "/report.html"),
          "the index links the kept report");
      JsonNode pass = json(passes.get(0).resolve("pass.json"));
      assertEquals("after-events", pass.get("trigger").asText());
      assertEquals(4, pass.get("append_to_appraisal").get("events").asInt());

      agent.call("fail", 4);
      await().atMost(PATIENCE).until(() -> watch.passLines().size() == 2);
      assertTrue(watch.passLines().get(1).contains(" events=4 "), watch.passLines().get(1));
      assertEquals(2, list(out.resolve("passes")).size());
      assertEquals(0, watch.sigterm(), watch.stderr());
    }
  }

  @Test
  void onThornsFiresWhenFailuresPileUpAndSigintStopsCleanly() throws Exception {
    try (var agent = new LiveProcesses.Agent(queue, "robin", tmp);
        var watch = new LiveProcesses.Watch(tmp, "w", args("--on-thorns", "3/1m"))) {
      agent.call("ok", 4);
      agent.call("fail", 2);
      await().atMost(PATIENCE).until(() -> depositedIn(bank) == 6);
      assertEquals(List.of(), watch.passLines(), "two failures are not three");

      agent.call("fail", 1);
      await().atMost(PATIENCE).until(() -> watch.passLines().size() == 1);
      String line = watch.passLines().get(0);
      assertTrue(line.contains(" pass trigger=on-thorns events=7 "), line);
      assertTrue(line.matches(".* top_thorn=tool\\.\\S+:fail .*"), line);
      JsonNode rbt = json(out.resolve("report.json")).get("rbt");
      assertTrue(rbt.get("counts").get("thorns").asInt() >= 1, rbt.toString());
      assertEquals(0, watch.sigint(), watch.stderr());
      assertTrue(
          watch.stdout().contains(" watch stopped: 7 events deposited live, 1 pass (0 failed), "),
          watch.stdout());
    }
  }

  @Test
  void everyFiresOnTimeAndNeverEarly() throws Exception {
    try (var agent = new LiveProcesses.Agent(queue, "robin", tmp);
        var watch = new LiveProcesses.Watch(tmp, "w", args("--every", "2s"))) {
      agent.call("ok", 2);
      await().atMost(PATIENCE).until(() -> watch.passLines().size() >= 2);
      Instant started =
          timeOf(
              watch
                  .stdout()
                  .lines()
                  .filter(l -> l.contains(" watch started: "))
                  .findFirst()
                  .orElseThrow());
      List<String> lines = watch.passLines();
      for (int k = 1; k <= 2; k++) {
        String line = lines.get(k - 1);
        assertTrue(line.contains(" pass trigger=every "), line);
        Duration after = Duration.between(started, timeOf(line));
        assertFalse(
            after.compareTo(Duration.ofSeconds(2L * k)) < 0, "pass " + k + " came early: " + after);
      }
      Duration first = Duration.between(started, timeOf(lines.get(0)));
      assertTrue(
          first.compareTo(Duration.ofSeconds(5)) < 0,
          "the first pass is due at 2 s, came at " + first);
      assertEquals(0, watch.sigterm(), watch.stderr());
      assertTrue(list(out.resolve("passes")).size() >= 2);
    }
  }

  @Test
  void sigtermExitsZeroKeepsThePositionAndARestartDepositsNothingTwice() throws Exception {
    try (var agent = new LiveProcesses.Agent(queue, "robin", tmp)) {
      try (var first = new LiveProcesses.Watch(tmp, "first", args())) {
        agent.call("ok", 3);
        agent.call("fail", 2);
        await().atMost(PATIENCE).until(() -> depositedIn(bank) == 5);
        assertEquals(0, first.sigterm(), first.stderr());
        assertTrue(
            first.stdout().contains(" watch stopped: 5 events deposited live, "), first.stdout());
      }
      long kept = json(bank.resolve(EmoBank.CHECKPOINT)).get("queues").elements().next().asLong();
      assertEquals(lastIndex(), kept, "the position is the last excerpt read");

      agent.call("ok", 2); // while no watch runs
      try (var second = new LiveProcesses.Watch(tmp, "second", args())) {
        await().atMost(PATIENCE).until(() -> depositedIn(bank) == 7);
        agent.call("fail", 3);
        await().atMost(PATIENCE).until(() -> depositedIn(bank) == 10);
        assertEquals(0, second.sigterm(), second.stderr());
        assertTrue(
            second.stdout().contains(" watch stopped: 5 events deposited live, "), second.stdout());
      }
    }
    assertEquals(10, ChildJvm.readQueue(queue).size());
    // a run over the whole queue finds every event deposited already, and a fresh bank ends with
    // the same rows
    assertEquals(
        0,
        LiveProcesses.analyzer(
            tmp,
            "again",
            "run",
            "--queue",
            queue.toString(),
            "--emobank",
            bank.toString(),
            "--out",
            tmp.resolve("again").toString(),
            "--detectors",
            "none"));
    JsonNode again = json(tmp.resolve("again").resolve("report.json"));
    assertEquals(0, again.get("events_deposited").asInt());
    assertEquals(10, again.get("events_already_deposited").asInt());
    Path fresh = tmp.resolve("fresh");
    assertEquals(
        0,
        LiveProcesses.analyzer(
            tmp,
            "fresh",
            "run",
            "--queue",
            queue.toString(),
            "--emobank",
            fresh.toString(),
            "--out",
            tmp.resolve("fresh-out").toString(),
            "--detectors",
            "none"));
    assertEquals(
        Files.readAllLines(fresh.resolve(EmoBank.EMOTIONS)),
        Files.readAllLines(bank.resolve(EmoBank.EMOTIONS)));
  }

  @Test
  void twoAgentsGetSeparateBanksAndTheFleetSummaryListsBoth() throws Exception {
    try (var alpha = new LiveProcesses.Agent(queue, "alpha", tmp);
        var beta = new LiveProcesses.Agent(queue, "beta", tmp)) {
      alpha.call("ok", 1);
      beta.call("ok", 1);
      try (var watch =
          new LiveProcesses.Watch(tmp, "w", args("--after-events", "4", "--detectors", "none"))) {
        alpha.call("fail", 3);
        beta.call("ok", 3);
        await().atMost(PATIENCE).until(() -> watch.passLines().size() == 2);
        Path summary = out.resolve("report.json");
        await()
            .atMost(PATIENCE)
            .until(() -> Files.exists(summary) && json(summary).get("agent_count").asInt() == 2);
        assertEquals(0, watch.sigterm(), watch.stderr());
      }
    }
    assertEquals(4, depositedIn(bank.resolve("agents/alpha")));
    assertEquals(4, depositedIn(bank.resolve("agents/beta")));
    assertFalse(Files.exists(bank.resolve(EmoBank.EMOTIONS)), "no bank at the root of a fleet");
    JsonNode fleet = json(out.resolve("report.json"));
    assertTrue(fleet.get("fleet").asBoolean());
    JsonNode a = fleet.get("agents").get(0);
    JsonNode b = fleet.get("agents").get(1);
    assertEquals("alpha", a.get("agent").asText());
    assertEquals("agents/alpha", a.get("dir").asText());
    assertTrue(a.get("thorns").asInt() >= 1, a.toString());
    assertTrue(a.get("top_thorn").get("cause").asText().endsWith(":fail"), a.toString());
    assertFalse(a.get("last_pass").asText().isEmpty());
    assertEquals("beta", b.get("agent").asText());
    assertEquals(0, b.get("thorns").asInt(), b.toString());
    assertTrue(b.get("top_thorn").isNull());
    assertEquals("relief", b.get("mood").asText());
    assertEquals(4, json(out.resolve("agents/beta/report.json")).get("events_used").asInt());
    assertEquals(4, json(out.resolve("agents/alpha/report.json")).get("events_used").asInt());
  }

  @Test
  void aSecondAgentJoiningSwitchesToTheFleetLayoutWhileWatchRuns() throws Exception {
    try (var alpha = new LiveProcesses.Agent(queue, "alpha", tmp)) {
      alpha.call("ok", 2);
      try (var watch =
              new LiveProcesses.Watch(
                  tmp, "w", args("--after-events", "4", "--detectors", "none"));
          var beta = new LiveProcesses.Agent(queue, "beta", tmp)) {
        await().atMost(PATIENCE).until(() -> depositedIn(bank) == 2);
        beta.call("ok", 4);
        await()
            .atMost(PATIENCE)
            .until(() -> watch.stdout().contains(" fleet: agent beta joined alpha; "));
        alpha.call("fail", 2);
        await().atMost(PATIENCE).until(() -> watch.passLines().size() == 2);
        assertTrue(
            watch.passLines().stream().anyMatch(l -> l.contains(" agent=beta events=4 used=4 ")),
            watch.passLines().toString());
        assertTrue(
            watch.passLines().stream().anyMatch(l -> l.contains(" agent=alpha events=4 used=4 ")),
            "alpha's new bank is filled from the window by its pass: " + watch.passLines());
        assertEquals(0, watch.sigterm(), watch.stderr());
      }
    }
    assertEquals(4, depositedIn(bank.resolve("agents/alpha")));
    assertEquals(4, depositedIn(bank.resolve("agents/beta")));
    assertEquals(2, depositedIn(bank), "the single agent's bank is left as it was");
    assertEquals(2, json(out.resolve("report.json")).get("agent_count").asInt());
  }

  private long lastIndex() {
    try (ChronicleQueue q = EventQueues.openForReading(queue)) {
      return q.lastIndex();
    }
  }

  private static Instant timeOf(String line) {
    return Instant.parse(line.substring(0, line.indexOf(' ')));
  }

  private static List<Path> list(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.sorted().toList();
    }
  }
}
