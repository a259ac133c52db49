package dev.vigil.bench;

import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventJson;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;

/**
 * The analyzer's {@code run} over generated events, as a whole process: {@code java -Xmx512m -jar
 * vigil-analyzer.jar run --events FILE} with a fresh EmoBank and output directory and a window wide
 * enough for every event, in two ways: with the default {@code --limit} (every line read and
 * checked, the newest 500 events appraised and diagnosed: what a user's {@code run} over a large
 * file does) and with {@code --limit} the event count (every event appraised, deposited and
 * diagnosed in one pass). Events per second is the event count over the process's wall time (JVM
 * start included). Heap comes from the JVM's own GC log: the most heap in use seen (before a
 * collection, or at exit) and the largest heap still live after a collection; the process's peak
 * resident set and CPU time (user and system) come from {@code /usr/bin/time} when present, and the
 * share of that CPU the JIT compilers took from the JVM's threads ({@link JitShare}).
 */
final class AnalyzerThroughput {
  /** One run. */
  record Figure(
      int events,
      boolean everyEvent,
      double seconds,
      double eventsPerSecond,
      int exit,
      long peakHeapMb,
      long liveHeapMb,
      long maxRssMb,
      long collections,
      double cpuSeconds,
      double jitShare,
      String failure) {}

  /** The longest one run may take before it is stopped and reported as failed. */
  static final long TIME_LIMIT_MINUTES = 8;

  private static final Pattern PAUSE = Pattern.compile("(\\d+)M->(\\d+)M\\((\\d+)M\\)");
  private static final Pattern EXIT_USED = Pattern.compile("total \\d+K, used (\\d+)K");

  /** What {@code /usr/bin/time -f "%M %U %S"} writes: peak RSS in KiB, user and system seconds. */
  private static final Pattern TIMES =
      Pattern.compile("^(\\d+) (\\d+\\.\\d+) (\\d+\\.\\d+)$", Pattern.MULTILINE);

  /**
   * The event kinds written, in turn: a success with an uplift, a failure, a late toast, a plain
   * success.
   */
  private static final String[] LINES = {
    "{\"ts\":\"%s\",\"kind\":\"tool.set_reminder\",\"status\":\"ok\",\"payload\":{\"tool\":\"setReminder\","
        + "\"args\":{\"when\":\"in 30 minutes\",\"task\":\"tea %d\"},\"result\":\"Reminder set\","
        + "\"duration_ms\":1.84,\"saved_ms\":%d,\"class\":\"demo.robin.RobinTools\","
        + "\"method\":\"setReminder\"},\"agent\":\"robin\",\"seq\":%d,\"pid\":4242,\"thread\":\"main\","
        + "\"turn\":\"t-%d\",\"call_id\":\"call_%d\"}",
    "{\"ts\":\"%s\",\"kind\":\"tool.book_hotel\",\"status\":\"fail\",\"payload\":{\"tool\":\"book_hotel\","
        + "\"args\":{\"city\":\"Lyon\",\"nights\":%d},\"duration_ms\":%d.5,\"error\":{\"type\":"
        + "\"java.lang.IllegalStateException\",\"message\":\"no rooms\","
        + "\"frames\":[\"demo.Hotel.book(Hotel.java:12)\"]}},"
        + "\"agent\":\"robin\",\"seq\":%d,\"pid\":4242,\"thread\":\"main\",\"turn\":\"t-%d\","
        + "\"call_id\":\"call_%d\"}",
    "{\"ts\":\"%s\",\"kind\":\"reminder.toast\",\"status\":\"delay\",\"payload\":{\"message\":\"Reminder %d\","
        + "\"delayed_by_sec\":%d},\"agent\":\"robin\",\"seq\":%d,\"pid\":4242,\"thread\":\"main\",\"turn\":\"t-%d\","
        + "\"call_id\":\"call_%d\"}",
    "{\"ts\":\"%s\",\"kind\":\"tool.search\",\"status\":\"ok\",\"payload\":{\"tool\":\"search\",\"args\":{\"q\":"
        + "\"weather %d\"},\"result\":\"sunny\",\"duration_ms\":%d.25},\"agent\":\"robin\",\"seq\":%d,\"pid\":4242,"
        + "\"thread\":\"main\",\"turn\":\"t-%d\",\"call_id\":\"call_%d\"}"
  };

  private AnalyzerThroughput() {}

  /** Writes {@code count} events, one millisecond apart, ending one second before {@code now}. */
  static Path generate(Path dir, int count, Instant now) throws IOException {
    Path file = dir.resolve("events-" + count + ".jsonl");
    Instant first = now.minusMillis(count + 1000L);
    try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (int i = 0; i < count; i++) {
        String ts = first.plusMillis(i).toString();
        w.write(String.format(LINES[i % LINES.length], ts, i % 97, i % 900, i + 1, i / 8, i));
        w.newLine();
      }
    }
    return file;
  }

  /**
   * Writes the same {@code count} events into a Chronicle queue {@code dir/queue-count}, as an
   * agent's writer would, in the order of the lines.
   */
  static Path generateQueue(Path dir, int count, Instant now) throws IOException {
    Path lines = generate(dir, count, now);
    Path queue = dir.resolve("queue-" + count);
    try (ChronicleQueue q = EventQueues.openForWriting(queue);
        ExcerptAppender a = q.createAppender();
        BufferedReader in = Files.newBufferedReader(lines, StandardCharsets.UTF_8)) {
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        EventWire.append(a, EventJson.read(line, ZoneOffset.UTC).event());
      }
    } catch (EventFormatException e) {
      throw new IllegalStateException("a generated line is not an event: " + e.getMessage(), e);
    }
    Files.delete(lines);
    return queue;
  }

  /**
   * Runs the analyzer once over {@code events}; the output goes to a fresh directory under {@code
   * work}.
   */
  static Figure run(
      String java,
      Path analyzerJar,
      Path events,
      int count,
      boolean everyEvent,
      Instant now,
      Path work)
      throws Exception {
    Path dir = Files.createTempDirectory(work, "run-" + count + "-");
    Path gcLog = dir.resolve("gc.log");
    Path timeFile = dir.resolve("time.txt");
    List<String> cmd = command(java, analyzerJar, events, count, everyEvent, now, dir);
    long start = System.nanoTime();
    Process p =
        new ProcessBuilder(cmd)
            .redirectOutput(dir.resolve("stdout.txt").toFile())
            .redirectError(dir.resolve("stderr.txt").toFile())
            .start();
    String failure = null;
    double jitShare;
    try (JitShare jit = JitShare.of(p)) {
      if (!p.waitFor(TIME_LIMIT_MINUTES, TimeUnit.MINUTES)) {
        p.destroyForcibly().waitFor();
        failure = "stopped after " + TIME_LIMIT_MINUTES + " minutes";
      }
      jitShare = jit.share();
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    int exit = failure == null ? p.exitValue() : -1;
    if (failure == null) {
      failure = failure(dir, exit);
    }
    long[] heap = heap(gcLog);
    Matcher times = TIMES.matcher(Files.exists(timeFile) ? Files.readString(timeFile) : "");
    boolean timed = times.find();
    return new Figure(
        count,
        everyEvent,
        seconds,
        failure == null ? count / seconds : 0,
        exit,
        heap[0],
        heap[1],
        timed ? Long.parseLong(times.group(1)) / 1024 : -1,
        heap[2],
        timed ? Double.parseDouble(times.group(2)) + Double.parseDouble(times.group(3)) : -1,
        jitShare,
        failure);
  }

  private static List<String> command(
      String java,
      Path analyzerJar,
      Path events,
      int count,
      boolean everyEvent,
      Instant now,
      Path dir) {
    List<String> cmd = new ArrayList<>();
    if (Files.isExecutable(Path.of("/usr/bin/time"))) {
      cmd.addAll(
          List.of("/usr/bin/time", "-f", "%M %U %S", "-o", dir.resolve("time.txt").toString()));
    }
    cmd.addAll(
        List.of(
            java,
            "-Xmx512m",
            "-Xlog:gc,gc+heap+exit:file=" + dir.resolve("gc.log"),
            "-jar",
            analyzerJar.toString()));
    cmd.addAll(runArgs(events, now, count, everyEvent));
    cmd.addAll(
        List.of(
            "--emobank",
            dir.resolve("emobank").toString(),
            "--out",
            dir.resolve("out").toString()));
    return cmd;
  }

  /**
   * The analyzer's {@code run} over {@code events} as of {@code now}, the last 24 hours: the newest
   * 500 of them appraised, or all {@code count} when {@code everyEvent}.
   */
  static List<String> runArgs(Path events, Instant now, int count, boolean everyEvent) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "run",
                Files.isDirectory(events) ? "--queue" : "--events",
                events.toString(),
                "--now",
                now.toString(),
                "--window-hours",
                "24"));
    if (everyEvent) {
      args.addAll(List.of("--limit", Integer.toString(count)));
    }
    return args;
  }

  /**
   * Why a finished run failed, or null: exit 1 is a degraded pass, which still ends with the
   * summary (of its artifacts, or of a fleet's agents); a crash (an OutOfMemoryError, say) does
   * not.
   */
  private static String failure(Path dir, int exit) throws IOException {
    String out = Files.readString(dir.resolve("stdout.txt"));
    if (exit <= 1 && (out.contains("artifacts: ") || out.contains("fleet summary: "))) {
      return null;
    }
    String err = Files.readString(dir.resolve("stderr.txt")).strip();
    int nl = err.indexOf('\n');
    String first = nl > 0 ? err.substring(0, nl) : err;
    return "exit " + exit + ": " + (first.length() > 100 ? first.substring(0, 100) + "..." : first);
  }

  /** Peak heap in use and most live after a collection (MB), and collections, from the GC log. */
  private static long[] heap(Path gcLog) throws IOException {
    String gc = Files.exists(gcLog) ? Files.readString(gcLog) : "";
    long peak = 0;
    long live = 0;
    long collections = 0;
    Matcher m = PAUSE.matcher(gc);
    while (m.find()) {
      collections++;
      peak = Math.max(peak, Long.parseLong(m.group(1)));
      live = Math.max(live, Long.parseLong(m.group(2)));
    }
    Matcher e = EXIT_USED.matcher(gc);
    while (e.find()) {
      peak = Math.max(peak, Long.parseLong(e.group(1)) / 1024);
    }
    return new long[] {peak, live, collections};
  }
}
