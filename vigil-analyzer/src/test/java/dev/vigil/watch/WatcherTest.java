package dev.vigil.watch;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.api.Analyzer;
import dev.vigil.learn.SessionModel;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import dev.vigil.orchestrate.PassOptions;
import dev.vigil.orchestrate.Rules;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The watch loop in-process, with a pass stage swapped for one that fails. */
class WatcherTest {
  @TempDir Path tmp;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private PassOptions template(Path queue) {
    return template(queue, Rules.defaults());
  }

  private PassOptions template(Path queue, Rules rules) {
    return WatchOptions.of(queue, tmp, Instant.now(), rules);
  }

  /** Runs the watcher's loop on another thread. */
  private static CompletableFuture<Watcher.Totals> start(Watcher watcher) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return watcher.run();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
  }

  private static void append(Path queue, int n, String status) {
    append(queue, n, status, null);
  }

  /** Appends {@code n} events at {@code ts}, or at the wall clock's now when it is null. */
  private static void append(Path queue, int n, String status, Instant ts) {
    try (ChronicleQueue q = EventQueues.openForWriting(queue)) {
      ExcerptAppender a = q.createAppender();
      for (int i = 0; i < n; i++) {
        EventWire.append(
            a,
            Event.of(ts != null ? ts : Instant.now(), "tool.look_up", status)
                .withOrigin("robin", null, null, null));
      }
    }
  }

  /** The events' time in the tests on a {@link SteppingClock}: a minute before the clock starts. */
  private static final Instant EVENTS_AT = Instant.parse("2026-11-24T10:00:00Z");

  private static SteppingClock clock() {
    return new SteppingClock(EVENTS_AT.plusSeconds(60), Duration.ofMillis(1));
  }

  @Test
  void withAModelEachPassScoresTheSessionsOfItsWindow() throws Exception {
    // a model of one feature: a failed look-up raises the margin from -2 by 3 per ln(1 + count)
    Path model = tmp.resolve("model.json");
    Files.writeString(
        model,
        "{\"format_version\":1,\"features\":{\"families\":[\"tool_calls\"],\"min_df\":1,"
            + "\"vocabulary\":[{\"feature\":\"t:look_up:fail\",\"idf\":1}]},\"weights\":{\"intercept\":-2,"
            + "\"by_feature\":{\"t:look_up:fail\":3}},\"calibration\":{\"a\":1,\"b\":0},"
            + "\"levels\":{\"watch\":0.35,\"alarm\":0.5},\"training\":{\"session_hashes\":\"\"}}");
    Path queue = tmp.resolve("queue");
    append(queue, 0, "ok");
    Watcher watcher =
        new Watcher(
            new Watcher.Settings(
                template(queue, Rules.defaults().withModel(SessionModel.load(model))),
                null,
                3,
                null),
            o -> Analyzer.builder().queue(o.queue()).build().run(o),
            Clock.systemUTC(),
            new PrintWriter(out, true),
            new PrintWriter(err, true));
    CompletableFuture<Watcher.Totals> running = start(watcher);
    append(queue, 3, "fail");
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> out.toString().contains(" stage=diff_done "));
    watcher.stop();
    running.get();

    JsonNode alarm =
        new ObjectMapper()
            .readTree(tmp.resolve("out").resolve("report.json").toFile())
            .get("alarm");
    // three failed look-ups of agent robin's session: margin -2 + 3 ln 4
    double expected = 1 / (1 + Math.exp(-(-2 + 3 * Math.log(4))));
    assertEquals(
        Math.round(expected * 10_000) / 10_000.0,
        alarm.get("score").asDouble(),
        1e-9,
        alarm.toString());
    assertEquals("alarm", alarm.get("level").asText());
    assertEquals("robin", alarm.at("/sessions/0/session").asText());
    assertEquals("t:look_up:fail", alarm.at("/reasons/0/source").asText());
    assertTrue(alarm.has("rules_score"), alarm.toString());
  }

  @Test
  void aFailingPassIsLoggedInOneLineAndTheNextTriggerRunsTheNextPass() throws Exception {
    Path queue = tmp.resolve("queue");
    append(queue, 0, "ok");
    AtomicInteger calls = new AtomicInteger();
    PassRunner failingOnce =
        o -> {
          if (calls.incrementAndGet() == 1) {
            throw new IllegalStateException("stage exploded");
          }
          return Analyzer.builder().queue(o.queue()).build().run(o);
        };
    Watcher watcher =
        new Watcher(
            new Watcher.Settings(template(queue), null, 2, null),
            failingOnce,
            Clock.systemUTC(),
            new PrintWriter(out, true),
            new PrintWriter(err, true));
    CompletableFuture<Watcher.Totals> running = start(watcher);
    append(queue, 2, "ok");
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> calls.get() == 1 && out.toString().contains(" failed: "));
    append(queue, 2, "fail");
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> out.toString().contains(" stage=diff_done "));
    watcher.stop();
    Watcher.Totals totals = running.get();

    assertEquals(4, totals.deposited());
    assertEquals(2, totals.passes());
    assertEquals(1, totals.failed());
    List<String> errors = err.toString().lines().toList();
    assertEquals(1, errors.size(), err.toString());
    assertTrue(
        errors
            .get(0)
            .matches(
                "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ vigil watch WARN: pass failed "
                    + "\\(trigger after-events, agent robin\\): java.lang.IllegalStateException: stage exploded.*"),
        errors.get(0));
    assertTrue(
        Files.exists(tmp.resolve("out").resolve("report.json")),
        "the second pass wrote its report");
    assertTrue(
        out.toString().contains(" pass trigger=after-events events=2 used=4 "), out.toString());
  }

  @Test
  void aLargeBacklogIsReadWithProgressAndItsTriggersMergeIntoOnePass() throws Exception {
    Path queue = tmp.resolve("queue");
    append(queue, 12_000, "ok");
    List<PassOptions> passes = new java.util.concurrent.CopyOnWriteArrayList<>();
    Watcher watcher =
        new Watcher(
            new Watcher.Settings(template(queue), null, 1_000, null),
            o -> {
              passes.add(o);
              return Analyzer.builder().queue(o.queue()).build().run(o);
            },
            Clock.systemUTC(),
            new PrintWriter(out, true),
            new PrintWriter(err, true));
    CompletableFuture<Watcher.Totals> running = start(watcher);
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> out.toString().contains(" stage=diff_done "));
    watcher.stop();
    Watcher.Totals totals = running.get();
    assertEquals(12_000, totals.deposited());
    assertEquals(1, passes.size(), out.toString());
    assertTrue(out.toString().contains(", backlog 12000 excerpts"), out.toString());
    assertTrue(
        out.toString().contains(" caught up: 12000 excerpts of the backlog read in "),
        out.toString());
    assertTrue(
        out.toString().contains(" pass trigger=after-events events=12000 used=500 "),
        out.toString());
    assertEquals(0, totals.delay().events(), "events appended before watch started are not live");
  }

  @Test
  void stopBeforeAnyEventKeepsNoPositionAndSaysSo() throws Exception {
    Path queue = tmp.resolve("queue");
    append(queue, 0, "ok");
    Watcher watcher =
        new Watcher(
            new Watcher.Settings(template(queue), Duration.ofHours(1), 0, null),
            o -> {
              throw new AssertionError("no pass is due");
            },
            Clock.systemUTC(),
            new PrintWriter(out, true),
            new PrintWriter(err, true));
    CompletableFuture<Watcher.Totals> running = start(watcher);
    await().atMost(Duration.ofSeconds(30)).until(() -> out.toString().contains(" watch started: "));
    watcher.stop();
    Watcher.Totals totals = running.get();
    assertEquals(0, totals.passes());
    assertEquals(-1, totals.position());
    assertTrue(out.toString().contains("passes every PT1H"), out.toString());
    assertTrue(out.toString().contains("read position none kept"), out.toString());
  }

  @Test
  void aPassRunsBesideTheTailWhichKeepsDepositingAndNeverStartsASecondPassMeanwhile()
      throws Exception {
    Path queue = tmp.resolve("queue");
    append(queue, 0, "ok");
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    AtomicInteger running = new AtomicInteger();
    AtomicInteger mostAtOnce = new AtomicInteger();
    AtomicInteger started = new AtomicInteger();
    PassRunner heldBack =
        o -> {
          mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
          started.incrementAndGet();
          try {
            if (!release.await(30, java.util.concurrent.TimeUnit.SECONDS)) {
              throw new IllegalStateException("not released");
            }
            return Analyzer.builder().queue(o.queue()).build().run(o);
          } catch (InterruptedException e) {
            throw new IllegalStateException(e);
          } finally {
            running.decrementAndGet();
          }
        };
    Watcher watcher =
        new Watcher(
            new Watcher.Settings(template(queue), null, 2, null),
            heldBack,
            Clock.systemUTC(),
            new PrintWriter(out, true),
            new PrintWriter(err, true));
    CompletableFuture<Watcher.Totals> loop = start(watcher);
    append(queue, 2, "ok");
    await().atMost(Duration.ofSeconds(30)).until(() -> started.get() == 1);
    append(queue, 5, "fail");
    // the pass is held back, and the tail deposits and commits the five all the same: their delays
    // are measured at
    // that commit, so they are counted while the pass still waits
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                LiveProcesses.depositedIn(tmp.resolve("bank")) == 7
                    && watcher.delay().events() >= 5);
    assertEquals(1, running.get(), "the pass is still held back");
    assertEquals(1, started.get(), "a trigger that fires during a pass waits for it");
    release.countDown();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                started.get() == 2
                    && out.toString().lines().filter(l -> l.contains(" stage=diff_done ")).count()
                        == 2);
    watcher.stop();
    Watcher.Totals totals = loop.get();
    assertEquals(7, totals.deposited());
    assertEquals(1, mostAtOnce.get(), "never two passes at once");
    assertTrue(
        out.toString().contains(" pass trigger=after-events events=5 used=7 "), out.toString());
    // the two calls before may be appended before watch's start, and then are not live
    assertTrue(totals.delay().events() >= 5, totals.delay().toString());
  }

  @Test
  void aStopInterruptsAPassThatRunsPastTheGraceAndKeepsEverythingTheTailDeposited()
      throws Exception {
    Path queue = tmp.resolve("queue");
    append(queue, 0, "ok");
    AtomicInteger started = new AtomicInteger();
    java.util.concurrent.atomic.AtomicBoolean interrupted =
        new java.util.concurrent.atomic.AtomicBoolean();
    PassRunner endless =
        o -> {
          started.incrementAndGet();
          while (!Thread.currentThread().isInterrupted()) {
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
          }
          interrupted.set(true);
          throw new java.util.concurrent.CancellationException("the pass saw the interrupt");
        };
    // a second a read: the grace runs out after thirty reads of the clock, however fast they come
    Watcher watcher =
        new Watcher(
            new Watcher.Settings(template(queue), null, 2, null),
            endless,
            new SteppingClock(EVENTS_AT.plusSeconds(60), Duration.ofSeconds(1)),
            new PrintWriter(out, true),
            new PrintWriter(err, true));
    CompletableFuture<Watcher.Totals> loop = start(watcher);
    append(queue, 2, "ok", EVENTS_AT);
    await().atMost(Duration.ofSeconds(30)).until(() -> started.get() == 1);
    append(queue, 3, "fail", EVENTS_AT);
    await().atMost(Duration.ofSeconds(30)).until(() -> watcher.deposited() == 5);
    watcher.stop();
    Watcher.Totals totals = loop.get(30, java.util.concurrent.TimeUnit.SECONDS);

    assertTrue(interrupted.get(), "the pass was interrupted");
    assertEquals(5, totals.deposited());
    assertEquals(1, totals.passes());
    assertEquals(0, totals.failed(), "an interrupted pass is not a failed one");
    assertTrue(
        out.toString().contains(" watch stopping: the pass in flight ran 30 s past the stop"),
        out.toString());
    assertTrue(out.toString().contains(" cancelled: watch is stopping"), out.toString());
    assertEquals("", err.toString());
    assertEquals(5, LiveProcesses.depositedIn(tmp.resolve("bank")), "committed at the stop");
  }

  @Test
  void startedBeforeTheAgentCreatedTheQueueSaysSoOnceWaitsAndPicksUpItsFirstEvents()
      throws Exception {
    Path queue = tmp.resolve("agent").resolve("queue"); // nothing there yet, not even the parent
    List<PassOptions> passes = new java.util.concurrent.CopyOnWriteArrayList<>();
    Watcher watcher =
        new Watcher(
            new Watcher.Settings(template(queue), null, 3, null),
            o -> {
              passes.add(o);
              return Analyzer.builder().queue(o.queue()).build().run(o);
            },
            clock(),
            new PrintWriter(out, true),
            new PrintWriter(err, true));
    CompletableFuture<Watcher.Totals> running = start(watcher);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> out.toString().contains(" watch waiting: ") || running.isDone());
    assertTrue(
        out.toString()
            .contains(
                " watch waiting: queue "
                    + queue
                    + " does not exist yet (the agent creates it "
                    + "on its first tool call); tailing it once it does"),
        out.toString());

    append(queue, 3, "ok", EVENTS_AT); // the agent's first calls create the queue
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> out.toString().contains(" stage=diff_done "));
    watcher.stop();
    Watcher.Totals totals = running.get();
    assertEquals(3, totals.deposited());
    assertEquals(1, passes.size());
    assertEquals(
        1,
        out.toString().lines().filter(l -> l.contains(" watch waiting: ")).count(),
        out.toString());
    assertTrue(
        out.toString().contains(" pass trigger=after-events events=3 used=3 "), out.toString());
    assertEquals("", err.toString());
  }

  @Test
  void aDirectoryWithoutQueueFilesIsWaitedForToo() throws Exception {
    Path queue = Files.createDirectories(tmp.resolve("queue"));
    Watcher watcher =
        new Watcher(
            new Watcher.Settings(template(queue), null, 1, null),
            o -> Analyzer.builder().queue(o.queue()).build().run(o),
            clock(),
            new PrintWriter(out, true),
            new PrintWriter(err, true));
    CompletableFuture<Watcher.Totals> running = start(watcher);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> out.toString().contains(" watch waiting: ") || running.isDone());
    assertTrue(
        out.toString().contains(" watch waiting: queue " + queue + " holds no Chronicle queue yet"),
        out.toString());
    append(queue, 1, "fail", EVENTS_AT);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> out.toString().contains(" stage=diff_done "));
    watcher.stop();
    assertEquals(1, running.get().deposited());
  }

  @Test
  void stopWhileWaitingForTheQueueEndsTheWatchWithNothingRead() throws Exception {
    Path queue = tmp.resolve("queue");
    Clock clock = Clock.fixed(Instant.parse("2026-11-22T12:00:00Z"), ZoneOffset.UTC);
    Watcher watcher =
        new Watcher(
            new Watcher.Settings(template(queue), Duration.ofMinutes(1), 0, null),
            o -> {
              throw new AssertionError("no pass without a queue");
            },
            clock,
            new PrintWriter(out, true),
            new PrintWriter(err, true));
    CompletableFuture<Watcher.Totals> running = start(watcher);
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> out.toString().contains(" watch waiting: ") || running.isDone());
    watcher.stop();
    Watcher.Totals totals = running.get();
    assertEquals(0, totals.deposited());
    assertEquals(-1, totals.position());
    assertEquals(
        List.of(
            "2026-11-22T12:00:00.000000Z watch waiting: queue "
                + queue
                + " does not exist yet (the agent creates it on "
                + "its first tool call); tailing it once it does",
            "2026-11-22T12:00:00.000000Z watch stopped: the queue "
                + queue
                + " was never created; nothing read"),
        out.toString().lines().toList());
    assertTrue(
        Files.notExists(queue) && Files.notExists(tmp.resolve("bank")),
        "watch creates nothing while waiting");
  }
}
