package dev.vigil.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One child of the back-to-back and CPU figures ({@link BackToBack}) under Vigil, with an agent jar
 * and child JVM options of your choice: to compare two builds of the agent one child after the
 * other, alternating, where the suite's medians of three are too coarse (bench/one-child.sh,
 * docs/BENCHMARKS.md). Prints each measured round's figures, the collector's pauses over the
 * child's life (from its GC log) and whether the queue held every call's event.
 *
 * <p>Arguments: {@code AGENT_JAR SHAPE THREADS CALLS_PER_THREAD ROUNDS pinned|both [JVM options]};
 * {@code SHAPE} is {@code fresh}, {@code objects} or {@code literal} ({@link BackToBackApp}).
 */
public final class BackToBackOne {
  private static final Pattern PAUSE = Pattern.compile("Pause (Young|Full).* ([0-9.]+)ms");

  private BackToBackOne() {}

  public static void main(String[] args) throws Exception {
    if (args.length < 6 || !List.of("pinned", "both").contains(args[5])) {
      System.err.println(
          "usage: BackToBackOne AGENT_JAR fresh|objects|literal THREADS CALLS_PER_THREAD ROUNDS"
              + " pinned|both [child JVM options...]");
      System.exit(2);
    }
    Path agent = Path.of(args[0]);
    if (!Files.isRegularFile(agent)) {
      System.err.println("BackToBackOne: no agent jar at " + agent);
      System.exit(2);
    }
    String shape = args[1];
    if (!AgentThroughput.SHAPES.contains(shape)) {
      // the application takes any other word for the literal shape: a typo would measure that
      System.err.println(
          "BackToBackOne: shape '" + shape + "' is not one of " + AgentThroughput.SHAPES);
      System.exit(2);
    }
    int threads = positive("THREADS", args[2]);
    int perThread = positive("CALLS_PER_THREAD", args[3]);
    int rounds = positive("ROUNDS", args[4]);
    boolean pinned = args[5].equals("pinned");
    Path dir = Files.createTempDirectory("vigil-one-child");
    Path gcLog = dir.resolve("gc.log");
    List<String> options = new ArrayList<>(Arrays.asList(args).subList(6, args.length));
    options.add("-Xlog:gc:file=" + gcLog);
    BackToBack.Setup setup = BackToBack.vigil(agent, dir, pinned, shape, options);
    List<BackToBack.Round> measured = new ArrayList<>();
    for (int i = 0; i < rounds; i++) {
      measured.add(new BackToBack.Round(threads, perThread));
    }
    BackToBack.Run run =
        BackToBack.run(
            "java",
            setup,
            List.of(new BackToBack.Round(1, 500_000)),
            measured,
            dir.resolve("stderr.txt"));
    if (run.failure() != null) {
      System.out.println("failed: " + run.failure());
      System.exit(1);
    }
    for (BackToBack.Timing t : run.rounds()) {
      ThreadTimes.Times busiest = t.busiest();
      System.out.printf(
          "%s, %d x %,d%s: recorded %,.0f events/s, CPU %.0f ns/call (system %.0f)%s%n",
          shape,
          threads,
          perThread,
          pinned ? ", pinned" : "",
          t.recordedPerSecond(),
          t.cpuPerCall(),
          t.systemPerCall(),
          busiest == null
              ? ""
              : String.format(
                  "; %s %.0f ns/call (user %.0f)",
                  busiest.name(),
                  (double) busiest.cpu() / t.round().calls(),
                  (double) busiest.user() / t.round().calls()));
    }
    System.out.println(pauses(Files.exists(gcLog) ? Files.readString(gcLog) : ""));
    System.out.println(
        (run.noneLost() ? "none lost: " : "LOST: ")
            + run.recorded()
            + " events of "
            + run.callsMade()
            + " calls (warm-up included)");
    BenchmarkSuite.deleteTree(dir);
  }

  /** {@code value}, the argument {@code name}, as a positive number; exits with usage 2 if not. */
  private static int positive(String name, String value) {
    try {
      int n = Integer.parseInt(value);
      if (n > 0) {
        return n;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    System.err.println("BackToBackOne: " + name + " '" + value + "' is not a positive number");
    System.exit(2);
    return 0;
  }

  /** The collector's pauses in a {@code -Xlog:gc} log: how many, and their sum. */
  static String pauses(String gcLog) {
    int young = 0;
    int full = 0;
    double youngMs = 0;
    double fullMs = 0;
    Matcher m = PAUSE.matcher(gcLog);
    while (m.find()) {
      double ms = Double.parseDouble(m.group(2));
      if (m.group(1).equals("Young")) {
        young++;
        youngMs += ms;
      } else {
        full++;
        fullMs += ms;
      }
    }
    return String.format(
        "collector pauses over the child's life: %d young, %.0f ms; %d full, %.0f ms",
        young, youngMs, full, fullMs);
  }
}
