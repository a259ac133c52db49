package dev.vigil.bench;

import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import dev.vigil.observe.ExcerptEvents;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.TailerDirection;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Runs {@link BackToBackApp} in a child JVM under one configuration (plain, Vigil, the
 * OpenTelemetry agent), optionally pinned to one core with {@code taskset -c 0}, and times each of
 * its rounds of back-to-back calls: the calling loop, and (under Vigil) until the last event is in
 * the queue, which this process watches by reading the queue's last excerpt every millisecond, on a
 * core of its own when the child is pinned. Afterwards every excerpt of the queue is read and
 * counted by kind ("none lost": the tool's events equal the calls made).
 */
final class BackToBack {
  /**
   * A configuration of the child JVM, and the shape of its calls ({@code fresh}, {@code objects} or
   * {@code literal}, see {@link BackToBackApp}).
   */
  record Setup(String name, List<String> jvmOptions, Path queue, boolean pinned, String shape) {
    /** The kind of the events its calls make. */
    String toolKind() {
      return switch (shape) {
        case "fresh" -> "tool.forecast";
        case "objects" -> "tool.plan";
        default -> "tool.tool";
      };
    }
  }

  /** One round: {@code threads} x {@code perThread} calls. */
  record Round(int threads, int perThread) {
    long calls() {
      return (long) threads * perThread;
    }
  }

  /**
   * The figures of one round.
   *
   * @param loopNanos the calling loop (all threads started together until the last ended)
   * @param recordedNanos from the loop's start until the last event was in the queue (the loop's
   *     when no queue)
   * @param cpuNanos the whole process's CPU time over the same span
   * @param systemNanos the system time within it (the kernel's work for the process), or -1 where
   *     the system does not say
   * @param busiest the busiest thread other than the calling ones over the same span, or null
   */
  record Timing(
      Round round,
      long loopNanos,
      long recordedNanos,
      long cpuNanos,
      long systemNanos,
      ThreadTimes.Times busiest) {
    double loopPerSecond() {
      return round.calls() * 1e9 / loopNanos;
    }

    double recordedPerSecond() {
      return round.calls() * 1e9 / recordedNanos;
    }

    double cpuPerCall() {
      return (double) cpuNanos / round.calls();
    }

    /** The system time per call, or NaN where the system does not say. */
    double systemPerCall() {
      return systemNanos < 0 ? Double.NaN : (double) systemNanos / round.calls();
    }
  }

  /**
   * One child's run: its measured rounds (the warm-up round left out), and the queue's events by
   * kind (empty when there is no queue), or why it failed.
   */
  record Run(Setup setup, List<Timing> rounds, long callsMade, Contents queue, String failure) {
    /** The queue's events by kind. */
    Map<String, Long> kinds() {
      return queue.kinds();
    }

    /** The tool's events in the queue. */
    long recorded() {
      return kinds().getOrDefault(setup.toolKind(), 0L);
    }

    /** Whether the queue holds one event per call and nothing else. */
    boolean noneLost() {
      return kinds().size() == 1 && recorded() == callsMade;
    }
  }

  /** How long the queue may go without a new event before the missing ones count as lost. */
  private static final long STALL_NANOS = TimeUnit.SECONDS.toNanos(60);

  /** The tool methods instrumented, every shape's ({@link BackToBackApp}). */
  private static final String METHODS = "[tool,forecast,plan]";

  private BackToBack() {}

  /**
   * The child's options for Vigil: its queue under {@code dir}, {@link BackToBackApp#tool}
   * included, and {@code extra} (a profiler's) before them.
   */
  static Setup vigil(Path vigilJar, Path dir, boolean pinned, String shape, List<String> extra) {
    Path queue = dir.resolve("queue-" + shape);
    List<String> options = new ArrayList<>(extra);
    options.add(
        "-javaagent:"
            + vigilJar
            + "=queue.dir="
            + queue
            + ",methods.include="
            + BackToBackApp.class.getName()
            + METHODS);
    return new Setup("Vigil", options, queue, pinned, shape);
  }

  /** The child's options for the OpenTelemetry agent, exporters off, the same method included. */
  static Setup otel(Path otelJar, boolean pinned, String shape) {
    List<String> options =
        new ArrayList<>(
            List.of(
                "-javaagent:" + otelJar,
                "-Dotel.instrumentation.methods.include="
                    + BackToBackApp.class.getName()
                    + METHODS));
    options.addAll(BenchmarkSuite.OTEL_QUIET);
    return new Setup("OpenTelemetry", options, null, pinned, shape);
  }

  /** The child without an agent. */
  static Setup plain(boolean pinned, String shape) {
    return new Setup("plain", List.of(), null, pinned, shape);
  }

  /**
   * Runs the child: the {@code warmUp} rounds, unmeasured, then {@code rounds} in order; then, for
   * Vigil, reads every event of the queue and deletes it.
   */
  static Run run(String java, Setup setup, List<Round> warmUp, List<Round> rounds, Path stderr)
      throws Exception {
    List<String> cmd = new ArrayList<>();
    if (setup.pinned()) {
      cmd.addAll(List.of("taskset", "-c", "0"));
    }
    cmd.add(java);
    cmd.addAll(setup.jvmOptions());
    Path benchJar =
        Path.of(BackToBackApp.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    cmd.addAll(List.of("-cp", benchJar.toString(), BackToBackApp.class.getName(), setup.shape()));
    Process app = new ProcessBuilder(cmd).redirectError(stderr.toFile()).start();
    List<Timing> timings = new ArrayList<>();
    long made = 0;
    String failure = null;
    QueueWatch queue = setup.queue() == null ? null : new QueueWatch(setup.queue());
    try (OutputStream toApp = app.getOutputStream();
        BufferedReader fromApp =
            new BufferedReader(
                new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8))) {
      for (Round round : warmUp) {
        round(round, made, toApp, fromApp, queue);
        made += round.calls();
      }
      for (Round round : rounds) {
        timings.add(round(round, made, toApp, fromApp, queue));
        made += round.calls();
      }
    } catch (IllegalStateException e) {
      failure = e.getMessage() + " (stderr in " + stderr + ")";
    } finally {
      if (!app.waitFor(2, TimeUnit.MINUTES)) {
        app.destroyForcibly();
      }
      if (queue != null) {
        queue.close();
      }
    }
    Contents contents =
        setup.queue() == null || failure != null
            ? new Contents(Map.of(), 0)
            : contentsOf(setup.queue());
    if (setup.queue() != null) {
      BenchmarkSuite.deleteTree(setup.queue());
    }
    return new Run(setup, timings, made, contents, failure);
  }

  private static Timing round(
      Round round, long before, OutputStream toApp, BufferedReader fromApp, QueueWatch queue)
      throws IOException {
    toApp.write(
        (round.threads() + " " + round.perThread() + "\n").getBytes(StandardCharsets.UTF_8));
    toApp.flush();
    String[] loop = expect(fromApp, "loop");
    long start = Long.parseLong(loop[2]);
    long loopNanos = Long.parseLong(loop[3]);
    long recorded = queue == null ? loopNanos : queue.awaitSeq(before + round.calls()) - start;
    toApp.write("drained\n".getBytes(StandardCharsets.UTF_8));
    toApp.flush();
    String[] cpu = expect(fromApp, "cpu");
    long system = cpu.length > 2 ? Long.parseLong(cpu[2]) : -1;
    ThreadTimes.Times busiest =
        cpu.length > 5
            ? new ThreadTimes.Times(
                String.join(" ", Arrays.asList(cpu).subList(5, cpu.length)),
                Long.parseLong(cpu[3]),
                Long.parseLong(cpu[4]))
            : null;
    return new Timing(round, loopNanos, recorded, Long.parseLong(cpu[1]), system, busiest);
  }

  private static String[] expect(BufferedReader fromApp, String word) throws IOException {
    String line = fromApp.readLine();
    while (PROFILER_STARTED.equals(line)) {
      line = fromApp.readLine(); // async-profiler's line on the child's stdout (--profile)
    }
    if (line == null || !line.startsWith(word + " ")) {
      throw new IllegalStateException(
          "the application ended or said '" + line + "' where '" + word + " ...' was expected");
    }
    return line.split(" ");
  }

  /**
   * The queue the child's agent writes, opened once it exists; its last excerpt's {@code seq}
   * polled.
   */
  private static final String PROFILER_STARTED = "Profiling started";

  private static final class QueueWatch implements AutoCloseable {
    private final Path dir;
    private ChronicleQueue queue;
    private ExcerptTailer last;

    QueueWatch(Path dir) {
      this.dir = dir;
    }

    /**
     * Waits until the last event's {@code seq} is at least {@code seq}; the {@link
     * System#nanoTime()} it was seen.
     */
    long awaitSeq(long seq) {
      long seen = -1;
      long progress = System.nanoTime();
      while (true) {
        long now = lastSeq();
        long at = System.nanoTime();
        if (now >= seq) {
          return at;
        }
        if (now != seen) {
          seen = now;
          progress = at;
        } else if (at - progress > STALL_NANOS) {
          throw new IllegalStateException(
              "the queue stopped at seq " + seen + " where " + seq + " calls were made");
        }
        LockSupport.parkNanos(1_000_000);
      }
    }

    private long lastSeq() {
      if (last == null) {
        if (!Files.exists(dir.resolve(EventQueues.METADATA_FILE))) {
          return 0;
        }
        try {
          queue = EventQueues.openForReading(dir);
        } catch (IllegalArgumentException notYet) {
          return 0;
        }
        last = queue.createTailer().direction(TailerDirection.BACKWARD);
      }
      last.toEnd();
      try (DocumentContext dc = last.readingDocument()) {
        if (!dc.isPresent()) {
          return 0;
        }
        Bytes<?> bytes = dc.wire().bytes();
        Long seq = null;
        for (ExcerptEvents events = new ExcerptEvents().start(bytes); events.next(); ) {
          seq = EventWire.read(events.event()).seq(); // a batch's last event is the queue's last
        }
        return seq == null ? 0 : seq;
      } catch (EventFormatException e) {
        throw new IllegalStateException(
            "the queue's last excerpt is not an event: " + e.getMessage(), e);
      }
    }

    @Override
    public void close() {
      if (queue != null) {
        queue.close();
      }
    }
  }

  /**
   * What a queue held: its events by kind (an unreadable event counts as {@code <unreadable>}), and
   * the bytes of all its excerpts (their headers left out).
   */
  record Contents(Map<String, Long> kinds, long excerptBytes) {
    /** Bytes an event on average, a batch's framing included; 0 for an empty queue. */
    long bytesAnEvent() {
      long n = kinds.values().stream().mapToLong(Long::longValue).sum();
      return n == 0 ? 0 : Math.round((double) excerptBytes / n);
    }
  }

  private static Contents contentsOf(Path dir) {
    Map<String, Long> kinds = new TreeMap<>();
    long bytes = 0;
    if (!Files.exists(dir)) {
      return new Contents(kinds, bytes);
    }
    ExcerptEvents events = new ExcerptEvents();
    try (ChronicleQueue q = EventQueues.openForReading(dir)) {
      ExcerptTailer tailer = q.createTailer();
      while (true) {
        try (DocumentContext dc = tailer.readingDocument()) {
          if (!dc.isPresent()) {
            return new Contents(kinds, bytes);
          }
          Bytes<?> excerpt = dc.wire().bytes();
          bytes += excerpt.readRemaining();
          events.start(excerpt);
          while (true) {
            String kind;
            try {
              if (!events.next()) {
                break;
              }
              kind = EventWire.read(events.event()).kind();
            } catch (EventFormatException e) {
              kind = "<unreadable>";
            }
            kinds.merge(kind, 1L, Long::sum);
          }
        }
      }
    }
  }
}
