package dev.vigil.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code watch}'s append-to-appraisal delay (docs/BENCHMARKS.md): {@link PacedCalls} under the real
 * javaagent calls a tool every {@value #PACE_MS} ms while the packaged {@code java -jar
 * vigil-analyzer.jar watch} tails its queue; {@code watch} stops on SIGTERM and its stop line gives
 * the median and 99th percentile of the delay from each live call's append to the commit of its
 * appraisal in the EmoBank. A backlog of calls made before {@code watch} starts is deposited first
 * and not measured (it was not live).
 */
final class WatchDelay {
  /** One scenario's figures. */
  record Figure(
      String scenario, long backlog, long calls, double medianMs, double p99Ms, String failure) {}

  static final int PACE_MS = 5;
  private static final Pattern STOPPED =
      Pattern.compile("delay median=([0-9.]+)ms p99=([0-9.]+)ms n=(\\d+)");
  private static final Pattern DEPOSITED = Pattern.compile("\"events_deposited\"\\s*:\\s*(\\d+)");
  private static final long PATIENCE_MS = 300_000;

  private WatchDelay() {}

  /**
   * Runs one scenario in a directory of its own under {@code work}.
   *
   * @param backlog calls made before {@code watch} starts
   * @param calls live calls, {@value #PACE_MS} ms apart
   * @param watchFlags the trigger options of {@code watch} (none: deposits only)
   */
  static Figure measure(
      String java,
      Path vigil,
      Path analyzer,
      Path work,
      String scenario,
      int backlog,
      int calls,
      List<String> watchFlags)
      throws Exception {
    Path dir =
        Files.createDirectories(work.resolve("watch-" + scenario.replaceAll("[^a-z0-9]+", "-")));
    Path queue = dir.resolve("queue");
    Path bank = dir.resolve("emobank");
    Process app = application(java, vigil, queue, dir);
    Process watch = null;
    try (OutputStream toApp = app.getOutputStream();
        BufferedReader fromApp =
            new BufferedReader(
                new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8))) {
      calls(toApp, fromApp, backlog, 0);
      Path watchOut = dir.resolve("watch.out");
      watch = watch(java, analyzer, queue, bank, dir, watchFlags);
      waitFor(() -> Files.readString(watchOut).contains(" watch started: "), watch, "start");
      waitFor(() -> deposited(bank) >= backlog, watch, "deposit the backlog of " + backlog);
      calls(toApp, fromApp, calls, PACE_MS);
      waitFor(() -> deposited(bank) >= (long) backlog + calls, watch, "deposit every call");
      watch.destroy(); // SIGTERM
      if (!watch.waitFor(60, TimeUnit.SECONDS) || watch.exitValue() != 0) {
        return failed(
            scenario, backlog, calls, "watch did not stop with exit 0 on SIGTERM; see " + dir);
      }
      return figure(scenario, backlog, calls, watchOut);
    } catch (IllegalStateException e) {
      return failed(scenario, backlog, calls, e.getMessage());
    } finally {
      if (watch != null && watch.isAlive()) {
        watch.destroyForcibly();
      }
      if (!app.waitFor(30, TimeUnit.SECONDS)) {
        app.destroyForcibly();
      }
    }
  }

  /** The application under {@code -javaagent:vigil.jar}, calling its tool when told to. */
  private static Process application(String java, Path vigil, Path queue, Path dir)
      throws Exception {
    Path benchJar =
        Path.of(PacedCalls.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    return new ProcessBuilder(
            java,
            "-javaagent:"
                + vigil
                + "=queue.dir="
                + queue
                + ",methods.include="
                + PacedCalls.class.getName()
                + "[remind]",
            "-cp",
            benchJar.toString(),
            PacedCalls.class.getName())
        .redirectError(dir.resolve("app.err").toFile())
        .start();
  }

  /** The packaged {@code watch} tailing {@code queue}, its output in {@code dir}. */
  private static Process watch(
      String java, Path analyzer, Path queue, Path bank, Path dir, List<String> watchFlags)
      throws IOException {
    List<String> cmd =
        BenchmarkSuite.analyzerCommand(
            java,
            analyzer,
            "watch",
            "--queue",
            queue.toString(),
            "--emobank",
            bank.toString(),
            "--out",
            dir.resolve("out").toString());
    cmd.addAll(watchFlags);
    return new ProcessBuilder(cmd)
        .redirectOutput(dir.resolve("watch.out").toFile())
        .redirectError(dir.resolve("watch.err").toFile())
        .start();
  }

  /** The figure of {@code watch}'s stop line ({@code delay median=… p99=… n=…}). */
  private static Figure figure(String scenario, int backlog, int calls, Path watchOut)
      throws IOException {
    String stop =
        Files.readString(watchOut)
            .lines()
            .filter(l -> l.contains(" watch stopped: "))
            .findFirst()
            .orElse("");
    Matcher m = STOPPED.matcher(stop);
    if (!m.find()) {
      return failed(scenario, backlog, calls, "no delay in the stop line: " + stop);
    }
    return new Figure(
        scenario,
        backlog,
        Long.parseLong(m.group(3)),
        Double.parseDouble(m.group(1)),
        Double.parseDouble(m.group(2)),
        null);
  }

  private static Figure failed(String scenario, long backlog, long calls, String why) {
    return new Figure(scenario, backlog, calls, Double.NaN, Double.NaN, why);
  }

  private static void calls(OutputStream toApp, BufferedReader fromApp, int n, int pauseMs)
      throws IOException {
    if (n == 0) {
      return;
    }
    toApp.write((n + " " + pauseMs + "\n").getBytes(StandardCharsets.UTF_8));
    toApp.flush();
    String line = fromApp.readLine();
    if (line == null || !line.startsWith("done ")) {
      throw new IllegalStateException(
          "the application under Vigil stopped before its calls were made");
    }
  }

  /** Events deposited into the bank, as its last commit records them. */
  private static long deposited(Path bank) {
    try {
      Matcher m = DEPOSITED.matcher(Files.readString(bank.resolve("checkpoint.json")));
      return m.find() ? Long.parseLong(m.group(1)) : 0;
    } catch (IOException e) {
      return 0; // not written yet, or being replaced
    }
  }

  private interface Condition {
    boolean holds() throws IOException;
  }

  private static void waitFor(Condition c, Process watch, String what) throws Exception {
    long deadline = System.currentTimeMillis() + PATIENCE_MS;
    while (!c.holds()) {
      if (!watch.isAlive()) {
        throw new IllegalStateException(
            "watch exited (" + watch.exitValue() + ") before it could " + what);
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IllegalStateException(
            "watch did not " + what + " within " + PATIENCE_MS / 1000 + " s");
      }
      Thread.sleep(20);
    }
  }
}
