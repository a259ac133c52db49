package dev.vigil.watch;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A soak with chaos (docs/BENCHMARKS.md#soak-with-chaos-benchsoaksh-minutes): agent processes
 * ({@code SteadyCallsApp} under {@code -javaagent:vigil.jar}, one agent name, one queue) make calls
 * at a steady rate while the packaged {@code watch} tails the queue and runs a pass on a timer.
 * Agent processes and {@code watch} are SIGKILLed at random points ({@link
 * SoakSettings#schedule()}, from a printed seed) and restarted at once. The last third of the load
 * leaves the last {@code watch} alone, to compare its heap and file descriptors from its warm-up to
 * the end. Then every agent ends cleanly and it checks, from the files ({@link SoakChecks}): each
 * process's {@code seq} has no gap and no duplicate, the cleanly ended processes' calls are all in
 * the queue, every queue event is in the bank exactly once, the bank reads back ({@code run})
 * without an internal thorn and with nothing left to deposit, and {@code watch} leaked neither heap
 * nor file descriptors. Its figures are printed and written to {@code target/soak.txt}.
 *
 * <p>{@code verify} runs the short default (45 s of load, about 70 s in all); {@code bench/soak.sh
 * MINUTES} the long one. Settings: {@link SoakSettings}.
 */
class SoakIT {
  /**
   * The heap after a full GC at the end, less the identity table and the live rows (what grows with
   * the bank by design: {@link WatchFootprint#baseKib}), may exceed warm-up's by this.
   */
  static final double HEAP_FACTOR = 1.25;

  static final long HEAP_SLACK_KIB = 16 * 1024;

  /** Open file descriptors at the end may exceed warm-up's by this many. */
  static final long FD_SLACK = 8;

  private static final ObjectMapper MAPPER = new ObjectMapper();

  /**
   * The queue, bank, outputs and every process's output ({@code vigil.soak.dir}, {@code
   * target/soak-work} by default): emptied at the start, left for a look afterwards.
   */
  private Path tmp;

  private SoakSettings settings;
  private Path queue;
  private Path bank;
  private Path out;
  private Path logs;
  private SoakProcesses.Agent[] agents;
  private final List<SoakProcesses.Agent> everyAgent = new ArrayList<>();
  private final List<SoakProcesses.Watch> everyWatch = new ArrayList<>();
  private SoakProcesses.Watch watch;
  private final List<String> failures = new ArrayList<>();
  private final List<String> figures = new ArrayList<>();
  private int agentKills;
  private int watchKills;

  /**
   * Ends every child still running, so that a soak that failed half-way leaves no {@code watch} or
   * agent behind to write into the next run's directory.
   */
  @AfterEach
  void endChildren() throws InterruptedException {
    List<SoakProcesses.Child> children = new ArrayList<>(everyAgent);
    children.addAll(everyWatch);
    for (SoakProcesses.Child c : children) {
      if (c.process.isAlive()) {
        c.process.destroyForcibly();
        c.process.waitFor(30, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void agentsAndWatchKilledAtRandomLoseNothingAndDepositEachEventOnce() throws Exception {
    settings = SoakSettings.fromSystemProperties();
    tmp = Path.of(System.getProperty("vigil.soak.dir", "target/soak-work")).toAbsolutePath();
    deleteTree(tmp);
    queue = tmp.resolve("queue");
    bank = tmp.resolve("emobank");
    out = tmp.resolve("out");
    logs = Files.createDirectories(tmp.resolve("logs"));
    print("soak: " + settings.describe());
    start();
    long loadStart = System.nanoTime();
    CompletableFuture<WatchFootprint> warm = chaos(loadStart);
    Map<Long, Long> cleanCalls = endAgents();
    double loadSeconds = (System.nanoTime() - loadStart) / 1e9;
    WatchFootprint warmFigures = warm.get(5, TimeUnit.MINUTES);
    WatchFootprint endFigures = settle();
    SoakChecks.Result r = SoakChecks.check(queue, bank);
    JsonNode readBack = readBack();
    report(r, cleanCalls, loadSeconds, warmFigures, endFigures, readBack);
    assertions(r, cleanCalls, warmFigures, endFigures, readBack);
  }

  /** Starts the agents, waits until each makes calls, then starts {@code watch}. */
  private void start() throws Exception {
    agents = new SoakProcesses.Agent[settings.agents()];
    for (int slot = 0; slot < agents.length; slot++) {
      agents[slot] = newAgent();
    }
    for (SoakProcesses.Agent a : agents) {
      await().atMost(LiveProcesses.PATIENCE).until(() -> a.calls() > 0 || !a.process.isAlive());
      assertTrue(a.process.isAlive(), a::endedOnItsOwn);
    }
    watch = newWatch();
  }

  private SoakProcesses.Agent newAgent() throws IOException {
    SoakProcesses.Agent a =
        new SoakProcesses.Agent(
            "agent-" + everyAgent.size(), queue, "soak", settings.rate() / settings.agents(), logs);
    everyAgent.add(a);
    return a;
  }

  private SoakProcesses.Watch newWatch() throws IOException {
    List<String> args =
        List.of(
            "--queue",
            queue.toString(),
            "--emobank",
            bank.toString(),
            "--out",
            out.toString(),
            "--every",
            settings.every());
    SoakProcesses.Watch w =
        new SoakProcesses.Watch("watch-" + everyWatch.size(), settings.watchXmx(), logs, args);
    everyWatch.add(w);
    return w;
  }

  /**
   * Runs the kill schedule over the load; returns the warm-up figures of the last {@code watch},
   * measured beside the schedule once it is left alone.
   */
  private CompletableFuture<WatchFootprint> chaos(long loadStart) throws Exception {
    CompletableFuture<WatchFootprint> warm = null;
    for (SoakSettings.Kill k : settings.schedule()) {
      if (warm == null && k.at().compareTo(settings.watchChaosUntil()) >= 0) {
        warm = warmUp();
      }
      sleepUntil(loadStart, k.at());
      if (k.slot() < 0) {
        noteOwnEnd(watch.kill());
        watchKills++;
        watch = newWatch();
      } else {
        noteOwnEnd(agents[k.slot()].kill());
        agentKills++;
        agents[k.slot()] = newAgent();
      }
    }
    if (warm == null) {
      warm = warmUp();
    }
    sleepUntil(loadStart, settings.load());
    return warm;
  }

  private static void sleepUntil(long start, Duration at) throws InterruptedException {
    long wait = start + at.toNanos() - System.nanoTime();
    if (wait > 0) {
      TimeUnit.NANOSECONDS.sleep(wait);
    }
  }

  private void noteOwnEnd(String ended) {
    if (ended != null) {
      failures.add(ended);
    }
  }

  /**
   * The last {@code watch}'s heap after a full GC, its open file descriptors and its identities,
   * just after its second pass (it has caught up and run twice).
   */
  private CompletableFuture<WatchFootprint> warmUp() {
    SoakProcesses.Watch last = watch;
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            await()
                .atMost(settings.load().plusMinutes(5))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> last.passLines().size() >= 2 || !last.process.isAlive());
            if (!last.process.isAlive()) {
              throw new AssertionError(
                  "the last watch ended before its second pass: " + last.endedOnItsOwn());
            }
            return measure(last, "warm-up");
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
  }

  /** The footprint of {@code w}; its class histogram goes to the logs, named by {@code when}. */
  private WatchFootprint measure(SoakProcesses.Watch w, String when) throws Exception {
    return WatchFootprint.measure(
        w.pid(), bank, logs.resolve(w.name + "-histogram-" + when + ".txt"));
  }

  /** Ends every agent process cleanly; returns each one's calls by pid. */
  private Map<Long, Long> endAgents() throws Exception {
    Map<Long, Long> calls = new LinkedHashMap<>();
    for (SoakProcesses.Agent a : agents) {
      if (!a.process.isAlive()) {
        failures.add(a.endedOnItsOwn());
      }
    }
    for (SoakProcesses.Agent a : agents) {
      calls.put(a.pid(), a.endCleanly());
    }
    return calls;
  }

  /**
   * Waits until {@code watch} has committed the queue's last excerpt and run a pass after it, then
   * measures it and stops it with SIGTERM.
   */
  private WatchFootprint settle() throws Exception {
    long last = SoakChecks.lastIndex(queue);
    Duration patience = settings.load().plusMinutes(2);
    await()
        .atMost(patience)
        .until(() -> SoakChecks.committedPosition(bank, queue) == last || !watch.process.isAlive());
    assertTrue(watch.process.isAlive(), watch::endedOnItsOwn);
    int passes = watch.passLines().size();
    await()
        .atMost(patience)
        .pollInterval(Duration.ofMillis(50))
        .until(() -> watch.passLines().size() > passes || !watch.process.isAlive());
    WatchFootprint end = measure(watch, "end");
    assertEquals(0, watch.sigterm(), watch.stderr());
    return end;
  }

  /** {@code run} over the queue and the bank once {@code watch} has stopped: its report. */
  private JsonNode readBack() throws Exception {
    Path readOut = tmp.resolve("readback");
    int exit =
        SoakProcesses.analyzer(
            logs,
            "readback",
            List.of(
                "run",
                "--queue",
                queue.toString(),
                "--emobank",
                bank.toString(),
                "--out",
                readOut.toString()));
    JsonNode report = MAPPER.readTree(readOut.resolve("report.json").toFile());
    ((com.fasterxml.jackson.databind.node.ObjectNode) report).put("exit", exit);
    return report;
  }

  private void report(
      SoakChecks.Result r,
      Map<Long, Long> cleanCalls,
      double loadSeconds,
      WatchFootprint warm,
      WatchFootprint end,
      JsonNode readBack)
      throws IOException {
    long passes = 0;
    long degraded = 0;
    long failed = 0;
    List<Integer> perWatch = new ArrayList<>();
    for (SoakProcesses.Watch w : everyWatch) {
      perWatch.add(w.passLines().size());
      for (String line : w.passLines()) {
        passes++;
        degraded += line.contains(" degraded ") ? 1 : 0;
        failed += line.contains(" failed") ? 1 : 0;
      }
    }
    print(
        "events: %,d in the queue from %d agent processes over %.0f s: %,.0f events/s; by kind %s",
        r.events(), r.perPid().size(), loadSeconds, r.events() / loadSeconds, r.perKind());
    print(
        "kills: %d agent processes and %d watch processes SIGKILLed (%d agent processes and %d"
            + " watch processes in all); %d passes printed (by each watch %s), %d degraded, %d"
            + " failed",
        agentKills,
        watchKills,
        everyAgent.size(),
        everyWatch.size(),
        passes,
        perWatch,
        degraded,
        failed);
    print(
        "queue: each process's seq from 1 without a gap or a duplicate: %d gaps, %d duplicates,"
            + " %d excerpts not events; the %d cleanly ended processes: %s calls made, %s in the"
            + " queue",
        r.gaps(),
        r.seqDuplicates(),
        r.notEvents(),
        cleanCalls.size(),
        cleanCalls.values(),
        cleanCalls.keySet().stream().map(pid -> eventsOf(r, pid)).toList());
    print(
        "bank: %,d of %,d queue events deposited, %d missing, %d identities committed twice, %,d"
            + " derived events; read back by run: exit %d, %d internal thorns, %d events newly"
            + " deposited",
        r.inBank(),
        r.events() - r.notEvents(),
        r.missing(),
        r.bankDuplicates(),
        r.derived(),
        readBack.path("exit").asInt(),
        readBack.path("internal_thorns").size(),
        readBack.path("events_deposited").asLong());
    printLeak(warm, end);
    r.problems().forEach(p -> print("problem: " + p));
    failures.forEach(f -> print("failure: " + f));
    Path file = Path.of(System.getProperty("vigil.soak.report", "target/soak.txt"));
    Files.createDirectories(file.toAbsolutePath().getParent());
    Files.write(file, figures);
  }

  private static long eventsOf(SoakChecks.Result r, long pid) {
    SoakChecks.Run run = r.perPid().get(pid);
    return run == null ? 0 : run.events;
  }

  private void printLeak(WatchFootprint warm, WatchFootprint end) {
    print(
        "watch after a full GC: heap %.1f MB at warm-up (%,d identities, table %.1f MB; %,d live"
            + " rows, %.1f MB), %.1f MB at the end (%,d identities, table %.1f MB; %,d live rows,"
            + " %.1f MB); the rest %.1f MB then %.1f MB; open fds %d then %d (margin: the rest at"
            + " most %.2f x warm-up's + %d MB, fds at most + %d; class histograms in logs/)",
        warm.heapKib() / 1024.0,
        warm.identities(),
        WatchFootprint.identityTableBytes(warm.identities()) / 1048576.0,
        warm.liveRows(),
        WatchFootprint.liveRowsBytes(warm.liveRows()) / 1048576.0,
        end.heapKib() / 1024.0,
        end.identities(),
        WatchFootprint.identityTableBytes(end.identities()) / 1048576.0,
        end.liveRows(),
        WatchFootprint.liveRowsBytes(end.liveRows()) / 1048576.0,
        warm.baseKib() / 1024.0,
        end.baseKib() / 1024.0,
        warm.fds(),
        end.fds(),
        HEAP_FACTOR,
        HEAP_SLACK_KIB / 1024,
        FD_SLACK);
  }

  private void assertions(
      SoakChecks.Result r,
      Map<Long, Long> cleanCalls,
      WatchFootprint warm,
      WatchFootprint end,
      JsonNode readBack) {
    assertTrue(failures.isEmpty(), String.join("\n", failures));
    assertTrue(r.problems().isEmpty(), String.join("\n", r.problems()));
    assertEquals(0, r.gaps());
    assertEquals(0, r.seqDuplicates());
    for (Map.Entry<Long, Long> c : cleanCalls.entrySet()) {
      assertEquals((long) c.getValue(), eventsOf(r, c.getKey()), "calls of pid " + c.getKey());
    }
    assertEquals(0, r.missing());
    assertEquals(0, r.bankDuplicates());
    assertEquals(r.events() - r.notEvents(), r.inBank());
    assertEquals(0, readBack.path("internal_thorns").size(), readBack.toString());
    assertEquals(0, readBack.path("events_deposited").asLong(), readBack.toString());
    assertEquals(0, readBack.path("exit").asInt());
    assertTrue(
        end.baseKib() <= warm.baseKib() * HEAP_FACTOR + HEAP_SLACK_KIB,
        "watch's heap less its identity table and live rows grew: "
            + warm.baseKib()
            + " KiB then "
            + end.baseKib());
    assertTrue(end.fds() <= warm.fds() + FD_SLACK, "watch's open fds: " + warm + " then " + end);
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }

  private void print(String format, Object... args) {
    String line = args.length == 0 ? format : String.format(Locale.ROOT, format, args);
    figures.add(line);
    System.out.println(line);
  }
}
