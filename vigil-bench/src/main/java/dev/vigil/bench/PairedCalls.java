package dev.vigil.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The time an agent adds to one call, with the instrumented call and its uninstrumented twin timed
 * in the same JVM (docs/BENCHMARKS.md). {@link AgentCallBenchmark} times them in JVMs of their own,
 * as JMH forks every benchmark; the uninstrumented call alone then differs from one JVM to the next
 * by as much as an agent adds. Here a child JVM under the agent times blocks of {@link
 * #CALLS_PER_BLOCK} calls, one of the instrumented method of {@link AgentCallBenchmark.Tools} and
 * one of its twin in each round, the order turned every round, a short pause between blocks so that
 * the agent's thread has written the block's events before the next block is timed. Each round
 * gives the difference per call; the figure is its median over the rounds, with the quartiles.
 */
final class PairedCalls {
  /** One child's figures, in ns per call. */
  record Figure(
      String shape,
      double plainNs,
      double addedNs,
      double addedQ1Ns,
      double addedQ3Ns,
      int rounds,
      String failure) {}

  /** Every shape's figures for Vigil and for the OpenTelemetry agent, one a JVM. */
  record Part(
      Map<String, List<Figure>> vigil, Map<String, List<Figure>> otel, int jvms, int rounds) {}

  /** JVMs of each agent and shape, a full run. */
  static final int JVMS = 3;

  /** Rounds untimed, then timed, in each JVM of a full run. */
  static final int WARM_UP_ROUNDS = 150;

  static final int ROUNDS = 400;

  /** Calls in each timed block: about 7 ms of calls at the benchmark's work per call. */
  static final int CALLS_PER_BLOCK = 1_000;

  /** The pause after each block. */
  private static final long PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  private static final String STOP_LINE = "paired";

  private final AgentCallBenchmark.Tools tools;
  private final String shape;
  private final Object[] kept = new Object[64];
  private int count;

  private PairedCalls(String shape, int work) {
    this.shape = shape;
    this.tools = new AgentCallBenchmark.Tools(work);
  }

  /**
   * Runs {@link #JVMS} children (one when {@code quick}) of each shape under each agent, Vigil's
   * and the OpenTelemetry agent's in turn.
   */
  static Part measureAll(
      String java, List<String> vigilOptions, List<String> otelOptions, boolean quick)
      throws Exception {
    int jvms = quick ? 1 : JVMS;
    int warmUp = quick ? 50 : WARM_UP_ROUNDS;
    int rounds = quick ? 100 : ROUNDS;
    Map<String, List<Figure>> vigil = new LinkedHashMap<>();
    Map<String, List<Figure>> otel = new LinkedHashMap<>();
    for (int j = 0; j < jvms; j++) {
      for (String shape : AgentThroughput.SHAPES) {
        vigil
            .computeIfAbsent(shape, s -> new ArrayList<>())
            .add(measure(java, vigilOptions, shape, warmUp, rounds));
        otel.computeIfAbsent(shape, s -> new ArrayList<>())
            .add(measure(java, otelOptions, shape, warmUp, rounds));
      }
    }
    return new Part(vigil, otel, jvms, rounds);
  }

  /** Prints the part: each JVM's figure, and Vigil's added time against the other agent's. */
  static void print(Part part) {
    System.out.printf(
        "per instrumented call, paired in one JVM (each round times %,d calls of the instrumented method and %,d of its"
            + " uninstrumented twin, in turn; added: the median over %d rounds of the difference per call, [quartiles];"
            + " %d JVM(s) of each; goal: Vigil adds at most 0.5 x what the OpenTelemetry agent adds):%n",
        CALLS_PER_BLOCK, CALLS_PER_BLOCK, part.rounds(), part.jvms());
    for (String shape : part.vigil().keySet()) {
      List<Figure> vigil = part.vigil().get(shape);
      List<Figure> otel = part.otel().getOrDefault(shape, List.of());
      System.out.printf("  %s:%n", shape);
      double vigilAdded = line("Vigil", vigil);
      double otelAdded = line("OpenTelemetry agent", otel);
      System.out.printf(
          Locale.ROOT,
          "    Vigil adds %.2f x the OpenTelemetry agent's added time (the medians of the JVMs' figures; goal: at"
              + " most 0.5 x)%n",
          vigilAdded / otelAdded);
    }
  }

  /** One agent's JVMs for a shape; returns the median of their added times. */
  private static double line(String agent, List<Figure> figures) {
    StringBuilder each = new StringBuilder();
    double[] added = new double[figures.size()];
    int n = 0;
    for (Figure f : figures) {
      if (f.failure() != null) {
        each.append(" FAILED: ").append(f.failure());
        continue;
      }
      each.append(
          String.format(
              Locale.ROOT,
              "  %5.0f [%5.0f, %5.0f] (call %5.0f)",
              f.addedNs(),
              f.addedQ1Ns(),
              f.addedQ3Ns(),
              f.plainNs()));
      added[n++] = f.addedNs();
    }
    double[] sorted = Arrays.copyOf(added, n);
    Arrays.sort(sorted);
    double median = n == 0 ? Double.NaN : quantile(sorted, 0.5);
    System.out.printf(Locale.ROOT, "    %-20s added ns:%s%n", agent, each);
    return median;
  }

  /**
   * Runs one child under {@code agentOptions} for {@code shape}: {@code warmUpRounds} rounds
   * untimed, then {@code rounds} timed.
   */
  static Figure measure(
      String java, List<String> agentOptions, String shape, int warmUpRounds, int rounds)
      throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(java);
    // the options this JVM was started with, as JMH gives its forks
    cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
    cmd.addAll(agentOptions);
    Path benchJar =
        Path.of(PairedCalls.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    cmd.addAll(
        List.of(
            "-cp",
            benchJar.toString(),
            PairedCalls.class.getName(),
            shape,
            Integer.toString(warmUpRounds),
            Integer.toString(rounds)));
    Process child = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
    String last = null;
    try (BufferedReader out =
        new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = out.readLine(); line != null; line = out.readLine()) {
        if (line.startsWith(STOP_LINE + " ")) {
          last = line;
        }
      }
    } finally {
      if (!child.waitFor(2, TimeUnit.MINUTES)) {
        child.destroyForcibly();
      }
    }
    if (last == null) {
      String exit = child.isAlive() ? "did not end" : "exited " + child.exitValue();
      return new Figure(
          shape,
          Double.NaN,
          Double.NaN,
          Double.NaN,
          Double.NaN,
          0,
          "the child "
              + exit
              + " without a figure; run it by hand to see why: "
              + String.join(" ", cmd));
    }
    String[] f = last.split(" ");
    return new Figure(
        shape,
        Double.parseDouble(f[1]),
        Double.parseDouble(f[2]),
        Double.parseDouble(f[3]),
        Double.parseDouble(f[4]),
        Integer.parseInt(f[5]),
        null);
  }

  /**
   * The child: {@code SHAPE WARM_UP_ROUNDS ROUNDS}. Prints {@code paired PLAIN ADDED Q1 Q3 ROUNDS},
   * ns per call.
   */
  public static void main(String[] args) {
    if (args.length != 3 || !AgentThroughput.SHAPES.contains(args[0])) {
      System.err.println(
          "usage: PairedCalls SHAPE WARM_UP_ROUNDS ROUNDS, SHAPE one of " + AgentThroughput.SHAPES);
      System.exit(2);
    }
    int warmUp = Integer.parseInt(args[1]);
    int rounds = Integer.parseInt(args[2]);
    PairedCalls calls = new PairedCalls(args[0], Integer.parseInt(AgentCallBenchmark.WORK));
    for (int r = 0; r < warmUp; r++) {
      calls.round(r, null, null);
    }
    double[] plain = new double[rounds];
    double[] added = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      calls.round(r, plain, added);
    }
    Arrays.sort(plain);
    Arrays.sort(added);
    System.out.printf(
        Locale.ROOT,
        "%s %.1f %.1f %.1f %.1f %d%n",
        STOP_LINE,
        quantile(plain, 0.5),
        quantile(added, 0.5),
        quantile(added, 0.25),
        quantile(added, 0.75),
        rounds);
  }

  /**
   * Round {@code r}: a block each way, the order turned every round; its figures kept at {@code r}
   * when the arrays are given.
   */
  private void round(int r, double[] plain, double[] added) {
    long plainNanos;
    long instrumentedNanos;
    if ((r & 1) == 0) {
      plainNanos = block(false);
      instrumentedNanos = block(true);
    } else {
      instrumentedNanos = block(true);
      plainNanos = block(false);
    }
    if (plain != null) {
      plain[r] = (double) plainNanos / CALLS_PER_BLOCK;
      added[r] = (double) (instrumentedNanos - plainNanos) / CALLS_PER_BLOCK;
    }
  }

  /**
   * Times {@link #CALLS_PER_BLOCK} calls of the shape, instrumented or not, then pauses. Every
   * result is kept in an array, so that neither call's objects can be optimized away.
   */
  private long block(boolean instrumented) {
    long start = System.nanoTime();
    for (int k = 0; k < CALLS_PER_BLOCK; k++) {
      kept[k & 63] = call(instrumented, count++ & 1023);
    }
    long took = System.nanoTime() - start;
    LockSupport.parkNanos(PAUSE_NANOS);
    return took;
  }

  private Object call(boolean instrumented, int i) {
    return switch (shape) {
      case "fresh" ->
          instrumented
              ? tools.forecast(BackToBackApp.questionOf(i), BackToBackApp.queryOf(i))
              : tools.plainForecast(BackToBackApp.questionOf(i), BackToBackApp.queryOf(i));
      case "objects" ->
          instrumented
              ? tools.plan(BackToBackApp.tripOf(i))
              : tools.plainPlan(BackToBackApp.tripOf(i));
      default -> instrumented ? tools.tool("in 30 minutes", i) : tools.plain("in 30 minutes", i);
    };
  }

  private static double quantile(double[] sorted, double q) {
    double at = q * (sorted.length - 1);
    int below = (int) Math.floor(at);
    int above = Math.min(sorted.length - 1, below + 1);
    return sorted[below] + (sorted[above] - sorted[below]) * (at - below);
  }
}
