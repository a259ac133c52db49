package dev.vigil.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Prints the javaagent's two figures: the time added per instrumented call (JMH, {@link AgentCallBenchmark}) and the
 * start-up time added (median wall time of {@link Hello} over repeated runs, with and without the agent).
 *
 * <p>{@code java -cp vigil-bench/target/vigil-bench.jar dev.vigil.bench.AgentOverhead [agent-jar] [start-up runs]}
 */
public final class AgentOverhead {
  private AgentOverhead() {}

  public static void main(String[] args) throws Exception {
    Path agent = Path.of(args.length > 0 ? args[0] : "vigil-javaagent/target/vigil.jar").toAbsolutePath();
    int runs = args.length > 1 ? Integer.parseInt(args[1]) : 15;
    if (!Files.isRegularFile(agent)) {
      System.err.println("agent jar " + agent + " not found: build it with ./mvnw -B package -DskipTests");
      System.exit(2);
    }
    Path queue = Files.createTempDirectory("vigil-bench-queue");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String cp = System.getProperty("java.class.path");

    Options options = new OptionsBuilder()
        .include(AgentCallBenchmark.class.getName())
        .forks(1)
        .warmupIterations(3).warmupTime(TimeValue.seconds(2))
        .measurementIterations(5).measurementTime(TimeValue.seconds(2))
        .jvmArgsAppend("-javaagent:" + agent + "=queue.dir=" + queue.resolve("calls")
            + ",methods.include=" + AgentCallBenchmark.Tools.class.getName() + "[tool]")
        .build();
    Collection<RunResult> results = new Runner(options).run();
    double baseline = 0;
    double instrumented = 0;
    for (RunResult r : results) {
      String name = r.getParams().getBenchmark();
      double score = r.getPrimaryResult().getScore();
      if (name.endsWith("baseline")) {
        baseline = score;
      } else {
        instrumented = score;
      }
    }

    List<Long> without = new ArrayList<>();
    List<Long> with = new ArrayList<>();
    for (int i = 0; i < runs + 2; i++) {
      long a = wallMillis(List.of(java, "-cp", cp, Hello.class.getName()));
      long b = wallMillis(List.of(java, "-javaagent:" + agent + "=queue.dir=" + queue.resolve("startup" + i),
          "-cp", cp, Hello.class.getName()));
      if (i >= 2) {
        without.add(a);
        with.add(b);
      }
    }
    long medianWithout = median(without);
    long medianWith = median(with);

    System.out.println();
    System.out.println("Vigil javaagent overhead (JDK " + System.getProperty("java.version") + ", "
        + Runtime.getRuntime().availableProcessors() + " cores)");
    System.out.printf("  per call: baseline %.0f ns, instrumented %.0f ns, added %.0f ns per call%n",
        baseline, instrumented, instrumented - baseline);
    System.out.printf("  start-up: Hello without agent %d ms, with agent %d ms, added %d ms (median of %d runs)%n",
        medianWithout, medianWith, medianWith - medianWithout, runs);
  }

  private static long wallMillis(List<String> cmd) throws Exception {
    long start = System.nanoTime();
    Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD)
        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
    if (p.waitFor() != 0) {
      throw new IllegalStateException("failed: " + String.join(" ", cmd));
    }
    return (System.nanoTime() - start) / 1_000_000;
  }

  private static long median(List<Long> values) {
    List<Long> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return sorted.get(sorted.size() / 2);
  }
}
