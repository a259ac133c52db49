package dev.vigil.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The analyzer as a user starts it, as a whole process: {@code run} with plain {@code java -jar
 * vigil-analyzer.jar} and through the launcher {@code bin/vigil}, which maps the analyzer's classes
 * from a class-data-sharing archive and compiles a {@code run} with C1 alone (docs/COMMANDS.md, the
 * launcher): over a small file (1,000 events, the fixed cost), over 100,000 events all used, and
 * over 1,000,000, the newest 500 (the default {@code --limit}) or all, in a JSONL file and in a
 * Chronicle queue as an agent writes it. The launcher's first run, which records the archive, is
 * timed apart; then the two ways alternate, run after run, and the median wall time of each is
 * printed.
 */
final class AnalyzerStartup {
  /** The figures, in seconds of wall time. */
  record Figure(
      int events,
      boolean everyEvent,
      boolean queue,
      double plain,
      double launcher,
      double recording,
      int runs) {}

  private AnalyzerStartup() {}

  /**
   * Times {@code run} over {@code count} generated events, every one used when {@code everyEvent};
   * the launcher's archive is kept in {@code work/cds} (recorded by the first call).
   */
  static Figure measure(
      String java,
      Path analyzerJar,
      Path launcher,
      Path work,
      Instant now,
      int count,
      boolean everyEvent,
      boolean queue,
      int runs)
      throws Exception {
    Path events =
        queue
            ? AnalyzerThroughput.generateQueue(work, count, now)
            : AnalyzerThroughput.generate(work, count, now);
    Path cds = Files.createDirectories(work.resolve("cds"));
    Path javaHome = Path.of(java).getParent().getParent();
    List<String> args = AnalyzerThroughput.runArgs(events, now, count, everyEvent);
    double recording =
        time(launcher(launcher, analyzerJar, javaHome, cds, args, work, count + "-record"));
    double[] plain = new double[runs];
    double[] fast = new double[runs];
    for (int i = 0; i < runs; i++) {
      List<String> cmd = new ArrayList<>(List.of(java, "-jar", analyzerJar.toString()));
      cmd.addAll(args);
      plain[i] = time(process(cmd, work, count + "-plain-" + i));
      fast[i] =
          time(
              launcher(launcher, analyzerJar, javaHome, cds, args, work, count + "-launcher-" + i));
    }
    BenchmarkSuite.deleteTree(events); // a file, or a queue's directory
    return new Figure(count, everyEvent, queue, median(plain), median(fast), recording, runs);
  }

  static void print(Figure f) {
    System.out.printf(
        "analyzer as started: run over %s%,d events%s, whole process (median of %d, alternating):"
            + " java -jar %.2f s (%,.0f events/s); bin/vigil %.2f s (%,.0f events/s, %+.0f %%);"
            + " bin/vigil's first run, which records the archive, %.2f s%n",
        f.queue() ? "a queue of " : "",
        f.events(),
        f.everyEvent() ? ", every event used" : f.events() > 500 ? ", the newest 500 used" : "",
        f.runs(),
        f.plain(),
        f.events() / f.plain(),
        f.launcher(),
        f.events() / f.launcher(),
        (f.launcher() / f.plain() - 1) * 100,
        f.recording());
  }

  private static ProcessBuilder launcher(
      Path launcher, Path jar, Path javaHome, Path cds, List<String> args, Path work, String name)
      throws Exception {
    List<String> cmd = new ArrayList<>(List.of(launcher.toString()));
    cmd.addAll(args);
    ProcessBuilder pb = process(cmd, work, name);
    pb.environment().put("VIGIL_JAR", jar.toString());
    pb.environment().put("VIGIL_CDS_DIR", cds.toString());
    pb.environment().put("JAVA_HOME", javaHome.toString());
    pb.environment().remove("VIGIL_JAVA_OPTS");
    pb.environment().remove("VIGIL_CDS");
    return pb;
  }

  private static ProcessBuilder process(List<String> cmd, Path work, String name) throws Exception {
    Path dir = Files.createDirectories(work.resolve("startup-" + name));
    List<String> all = new ArrayList<>(cmd);
    all.addAll(List.of("--out", dir.resolve("out").toString()));
    all.addAll(List.of("--emobank", dir.resolve("emobank").toString()));
    return new ProcessBuilder(all)
        .redirectOutput(dir.resolve("stdout.txt").toFile())
        .redirectError(dir.resolve("stderr.txt").toFile());
  }

  private static double time(ProcessBuilder pb) throws Exception {
    long start = System.nanoTime();
    Process p = pb.start();
    if (!p.waitFor(5, TimeUnit.MINUTES) || p.exitValue() > 1) {
      p.destroyForcibly();
      throw new IllegalStateException(
          "analyzer start-up: " + String.join(" ", pb.command()) + " failed");
    }
    return (System.nanoTime() - start) / 1e9;
  }

  private static double median(double[] v) {
    double[] s = v.clone();
    Arrays.sort(s);
    return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
  }
}
