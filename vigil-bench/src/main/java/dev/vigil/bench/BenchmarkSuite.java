package dev.vigil.bench;

import dev.vigil.observe.SpillImport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Every figure of docs/BENCHMARKS.md in one run, each printed with its unit and what it is compared
 * to:
 *
 * <ol>
 *   <li>time added per instrumented tool call, in three shapes of call: Vigil and the OpenTelemetry
 *       Java agent (instrumenting the same method through {@code
 *       otel.instrumentation.methods.include}, exporters off), each against the uninstrumented call
 *       in the same JVM ({@link AgentCallBenchmark}, JMH in sample mode: mean and median);
 *   <li>back to back, a tiny tool called in a loop on 1 and 16 threads: events per second, none
 *       lost; and CPU per call with the process pinned to one core: plain, Vigil, OpenTelemetry
 *       ({@link AgentThroughput});
 *   <li>start-up as a user sees it, plain, with Vigil, with the OpenTelemetry agent: the whole
 *       process of an application whose {@code main} calls a tool at once and exits ({@link
 *       StartupTimes}), and a Spring Boot LangChain4j application until it has served its first
 *       chat request ({@link BootStartup});
 *   <li>the analyzer's fixed cost: {@code run} over 1,000 events with {@code java -jar} and with
 *       the launcher's class-data sharing ({@link AnalyzerStartup});
 *   <li>the analyzer's {@code run} at 10^4, 10^5 and 10^6 events within {@code -Xmx512m}: events
 *       per second and heap ({@link AnalyzerThroughput});
 *   <li>{@code watch}'s append-to-appraisal delay: median and 99th percentile ({@link WatchDelay});
 *   <li>events per second through Kafka: {@code ship}, and a group of two {@code watch --bootstrap}
 *       instances, against a KRaft broker in this JVM ({@link KafkaThroughput}).
 * </ol>
 *
 * <p>{@code java -cp vigil-bench.jar dev.vigil.bench.BenchmarkSuite --vigil vigil.jar --otel
 * opentelemetry-javaagent.jar --analyzer vigil-analyzer.jar --boot-app support-agent.jar
 * [--boot-runs 5] [--startup-runs 11] [--watch-calls 2000] [--kafka-events 100000] [--only
 * calls,backtoback,cpu,startup,analyzer,watch,kafka] [--quick]}; {@code bench/run.sh} builds the
 * jars and runs it. A jar that is not there is a usage error (exit 2).
 */
@Command(
    name = "BenchmarkSuite",
    sortOptions = false,
    description =
        "Prints every benchmark figure of docs/BENCHMARKS.md, each with its unit and what it is compared to.")
public final class BenchmarkSuite implements Callable<Integer> {
  /**
   * The OpenTelemetry agent as a user would run it for this comparison: exporters off, nothing sent
   * anywhere.
   */
  static final List<String> OTEL_QUIET =
      List.of(
          "-Dotel.traces.exporter=none",
          "-Dotel.metrics.exporter=none",
          "-Dotel.logs.exporter=none",
          "-Dotel.javaagent.logging=none");

  @Spec private CommandSpec spec;

  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Shows this help and exits.")
  private boolean help;

  @Option(
      names = "--vigil",
      paramLabel = "JAR",
      defaultValue = "vigil-javaagent/target/vigil.jar",
      description = "Vigil's agent jar (default: ${DEFAULT-VALUE}).")
  private Path vigilJar;

  @Option(
      names = "--otel",
      paramLabel = "JAR",
      defaultValue = "vigil-bench/target/otel/opentelemetry-javaagent.jar",
      description = "The OpenTelemetry Java agent (default: ${DEFAULT-VALUE}).")
  private Path otelJar;

  @Option(
      names = "--analyzer",
      paramLabel = "JAR",
      defaultValue = "vigil-analyzer/target/vigil-analyzer.jar",
      description = "The analyzer's jar (default: ${DEFAULT-VALUE}).")
  private Path analyzerJar;

  @Option(
      names = "--launcher",
      defaultValue = "bin/vigil",
      description = "The analyzer's launcher (default: ${DEFAULT-VALUE}).")
  private Path launcher;

  @Option(
      names = "--boot-app",
      paramLabel = "JAR",
      defaultValue = "vigil-bench/support-agent/target/support-agent.jar",
      description =
          "The Spring Boot LangChain4j application of the start-up figure (default: ${DEFAULT-VALUE}).")
  private Path bootAppJar;

  @Option(
      names = "--corpus-jar",
      paramLabel = "JAR",
      defaultValue = "demo-robin/target/demo-robin.jar",
      description =
          "The jar of the labelled corpus's generator, for the analyzer over a conversation trace "
              + "(default: ${DEFAULT-VALUE}).")
  private Path corpusJar;

  @Option(
      names = "--boot-runs",
      paramLabel = "N",
      description =
          "Measured launches per configuration of the Spring Boot application, after one discarded "
              + "(default: 5; 1 and none discarded with --quick).")
  private Integer bootRuns;

  @Option(
      names = "--startup-runs",
      paramLabel = "N",
      description = "Launches per start-up configuration (default: 11; 3 with --quick).")
  private Integer startupRuns;

  @Option(
      names = "--watch-calls",
      paramLabel = "N",
      description = "Live calls of the watch figure, 5 ms apart (default: 2000; 200 with --quick).")
  private Integer watchCalls;

  @Option(
      names = "--kafka-events",
      paramLabel = "N",
      description =
          "Events of each of the two agents of the Kafka figures (default: 100000; 10000 with --quick).")
  private Integer kafkaEvents;

  @Option(
      names = "--only",
      paramLabel = "PARTS",
      split = ",",
      defaultValue = "calls,backtoback,cpu,startup,analyzer,watch,kafka,fit",
      description =
          "Some of the parts: calls, backtoback, cpu, startup, analyzer, watch, kafka, fit (default: all).")
  private List<String> only;

  @Option(
      names = "--profile",
      description =
          "Runs Vigil's children of the back-to-back and CPU figures under async-profiler and prints"
              + " a summary of each profile of their first run (their figures then carry the"
              + " profiler's cost); the collapsed stacks stay in vigil-bench/target/profiles.")
  private boolean profile;

  @Option(
      names = "--work-root",
      paramLabel = "DIR",
      description =
          "Where the run's files go, the agent's queues among them: a new directory under DIR"
              + " (default: the system's temporary directory). A tmpfs such as /dev/shm takes the"
              + " file system's share out of the back-to-back and CPU figures.")
  private Path workRoot;

  @Option(
      names = "--quick",
      description = "Fewer iterations and sizes, to check the command itself.")
  private boolean quick;

  private BenchmarkSuite() {}

  public static void main(String[] args) {
    System.exit(new CommandLine(new BenchmarkSuite()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    Path vigil = existing(vigilJar, "--vigil");
    Path otel = existing(otelJar, "--otel");
    Path analyzer = existing(analyzerJar, "--analyzer");
    if (only.contains("startup")) {
      existing(bootAppJar, "--boot-app"); // checked now rather than after the parts before it
    }
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path work =
        workRoot == null
            ? Files.createTempDirectory("vigil-bench")
            : Files.createTempDirectory(existingDirectory(workRoot), "vigil-bench");
    long began =
        System.nanoTime(); // a measurement (the run's length, printed), so the machine's own clock

    System.out.printf(
        "Vigil benchmarks: JDK %s, %d cores, %s%n",
        System.getProperty("java.version"),
        Runtime.getRuntime().availableProcessors(),
        System.getProperty("os.arch"));

    // each part measures now and prints its figures at the end, in this order
    List<Runnable> figures = new ArrayList<>();
    if (only.contains("calls")) {
      figures.add(perCall(java, vigil, otel, work));
    }
    throughput(java, vigil, otel, work, figures);
    if (only.contains("startup")) {
      figures.add(startup(java, vigil, otel, work));
    }
    if (only.contains("analyzer")) {
      figures.add(analyzer(java, analyzer, work));
    }
    if (only.contains("fit")) {
      FitBenchmark.Figure fit =
          FitBenchmark.measure(java, analyzer, work, quick ? 1_000 : 10_000, quick ? 1 : 11);
      figures.add(() -> FitBenchmark.print(fit));
    }
    if (only.contains("watch")) {
      figures.add(watch(java, vigil, analyzer, work));
    }
    if (only.contains("kafka")) {
      List<KafkaThroughput.Figure> kafka =
          KafkaThroughput.measure(
              java, analyzer, work, kafkaEvents != null ? kafkaEvents : quick ? 10_000 : 100_000);
      figures.add(() -> KafkaThroughput.print(kafka));
    }

    double minutes = (System.nanoTime() - began) / 6e10;
    deleteTree(work);
    System.out.println();
    System.out.println("=== Vigil benchmark figures ===");
    figures.forEach(Runnable::run);
    System.out.printf("(benchmark took %.1f minutes)%n", minutes);
    return 0;
  }

  /**
   * 3 and 4. Back to back and the CPU per call, with their profiles under {@code --profile}; adds
   * their printing to {@code figures}.
   */
  private void throughput(String java, Path vigil, Path otel, Path work, List<Runnable> figures)
      throws Exception {
    Profiler profiler = profile ? Profiler.prepare(work) : null;
    if (profiler != null) {
      System.out.println(
          "--profile: Vigil's children of the back-to-back and CPU figures run under async-profiler,"
              + " and their figures carry its cost");
    }
    if (only.contains("backtoback")) {
      AgentThroughput.Part part =
          AgentThroughput.backToBack(java, vigil, otel, work, quick, profiler);
      figures.add(() -> AgentThroughput.printBackToBack(part));
      figures.add(() -> AgentThroughput.printProfiles(part));
    }
    if (only.contains("cpu")) {
      AgentThroughput.Part part = AgentThroughput.cpu(java, vigil, otel, work, quick, profiler);
      PageCost.Figure pages = PageCost.measure(work);
      figures.add(() -> AgentThroughput.printCpu(part));
      figures.add(() -> PageCost.print(pages));
      figures.add(() -> AgentThroughput.printProfiles(part));
    }
  }

  /**
   * 1. The time added per call, with Vigil and with the OpenTelemetry agent: by JMH, and paired in
   * one JVM ({@link PairedCalls}).
   */
  private Runnable perCall(String java, Path vigil, Path otel, Path work) throws Exception {
    List<String> vigilArgs =
        List.of(
            "-javaagent:"
                + vigil
                + "=queue.dir="
                + work.resolve("calls-queue")
                + ",methods.include="
                + AgentCallBenchmark.Tools.class.getName()
                + "[tool,forecast,plan]");
    List<String> otelArgs =
        new ArrayList<>(
            List.of(
                "-javaagent:" + otel,
                "-Dotel.instrumentation.methods.include="
                    + AgentCallBenchmark.Tools.class.getName()
                    + "[tool,forecast,plan]"));
    otelArgs.addAll(OTEL_QUIET);
    Map<String, double[]> withVigil = perCall("vigil", vigilArgs, quick);
    Map<String, double[]> withOtel = perCall("otel", otelArgs, quick);
    PairedCalls.Part paired = PairedCalls.measureAll(java, vigilArgs, otelArgs, quick);
    // gigabytes of events: deleted now, their pages not yet on disk are dropped rather than written
    // out by the kernel while the next parts measure
    deleteTree(work.resolve("calls-queue"));
    return () -> {
      printPerCall(withVigil, withOtel, otel, quick);
      PairedCalls.print(paired);
    };
  }

  /** 2. Start-up: a short process, the Spring Boot application, and when Vigil is ready. */
  private Runnable startup(String java, Path vigil, Path otel, Path work) throws Exception {
    Path bootApp = existing(bootAppJar, "--boot-app");
    int startupRuns = this.startupRuns != null ? this.startupRuns : quick ? 3 : 11;
    String tool = StartupTool.class.getName() + "[lookup]";
    Path startupQueue = work.resolve("startup-queue");
    Map<String, List<String>> configurations = new LinkedHashMap<>();
    configurations.put("plain", List.of());
    configurations.put(
        "vigil",
        List.of("-javaagent:" + vigil + "=queue.dir=" + startupQueue + ",methods.include=" + tool));
    List<String> otelStartup =
        new ArrayList<>(
            List.of("-javaagent:" + otel, "-Dotel.instrumentation.methods.include=" + tool));
    otelStartup.addAll(OTEL_QUIET);
    configurations.put("otel", otelStartup);
    List<StartupTimes.Figure> startup =
        StartupTimes.measure(java, configurations, startupRuns, work);
    int spilled = SpillImport.importPending(startupQueue).events();
    int recorded = RecordedCalls.count(startupQueue, "tool.lookup");
    int launches = StartupTimes.launches(startupRuns);
    List<BootStartup.Figure> boot = boot(java, vigil, otel, bootApp, work);
    double ready =
        StartupTimes.vigilReadyMs(
            java,
            List.of(
                "-javaagent:"
                    + vigil
                    + "=queue.dir="
                    + work.resolve("startup-ready-queue")
                    + ",methods.include="
                    + tool),
            quick ? 1 : 3,
            work);
    double queueAlone = StartupTimes.queueAloneMs(java, chronicleOptions(), startupRuns, work);
    return () -> {
      printStartup(startup, startupRuns, ready, recorded, spilled, launches);
      System.out.printf(
          "  (Chronicle alone: a JVM with no agent whose main opens a Chronicle Queue, appends one"
              + " excerpt and closes it takes %.1f ms from main, median of %d; a launch that ends"
              + " within half a second of its call spills it rather than wait for that)%n",
          queueAlone, startupRuns);
      printBoot(boot);
    };
  }

  /**
   * The module options Chronicle Queue needs in a JVM without Vigil's agent: those this JVM was
   * started with ({@code bench/run.sh} passes them).
   */
  private static List<String> chronicleOptions() {
    List<String> out = new ArrayList<>();
    for (String a : java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (a.startsWith("--add-opens") || a.startsWith("--add-exports")) {
        out.add(a);
      }
    }
    out.add("-Dchronicle.analytics.disable=true");
    return out;
  }

  private List<BootStartup.Figure> boot(String java, Path vigil, Path otel, Path bootApp, Path work)
      throws Exception {
    String bootTool = "dev.vigil.bench.support.BookingDesk[findBooking]";
    Map<String, Function<Path, List<String>>> boot = new LinkedHashMap<>();
    boot.put("plain", queue -> List.of());
    boot.put("vigil", queue -> List.of("-javaagent:" + vigil + "=queue.dir=" + queue));
    List<String> otelBoot =
        new ArrayList<>(
            List.of("-javaagent:" + otel, "-Dotel.instrumentation.methods.include=" + bootTool));
    otelBoot.addAll(OTEL_QUIET);
    boot.put("otel", queue -> otelBoot);
    int runs = bootRuns != null ? bootRuns : quick ? 1 : 5;
    return BootStartup.measure(java, bootApp, boot, quick ? 0 : 1, runs, work);
  }

  /**
   * 3. The analyzer as started (its fixed cost, 10^5 events all used, the newest 500 of 10^6 and
   * all 10^6, from a file and from a queue), then run at 10^4, 10^5 and 10^6 events.
   */
  private Runnable analyzer(String java, Path analyzer, Path work) throws Exception {
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    Path start = existing(launcher, "--launcher");
    AnalyzerStartup.Figure fixed =
        AnalyzerStartup.measure(
            java, analyzer, start, work, now, 1_000, false, false, quick ? 3 : 11);
    AnalyzerStartup.Figure used =
        AnalyzerStartup.measure(
            java, analyzer, start, work, now, 100_000, true, false, quick ? 1 : 3);
    // the default --limit over a large file and a large queue (what a user's run over a long log
    // costs), then every event of each used
    List<AnalyzerStartup.Figure> newest = new ArrayList<>();
    if (!quick) {
      for (boolean every : new boolean[] {false, true}) {
        for (boolean queue : new boolean[] {false, true}) {
          newest.add(
              AnalyzerStartup.measure(
                  java, analyzer, start, work, now, 1_000_000, every, queue, 3));
        }
      }
    }
    List<AnalyzerThroughput.Figure> runs = new ArrayList<>();
    for (int count : quick ? new int[] {10_000, 100_000} : new int[] {10_000, 100_000, 1_000_000}) {
      Path events = AnalyzerThroughput.generate(work, count, now);
      runs.add(AnalyzerThroughput.run(java, analyzer, events, count, false, now, work));
      runs.add(AnalyzerThroughput.run(java, analyzer, events, count, true, now, work));
      Files.delete(events);
    }
    List<AnalyzerThroughput.Figure> conversation = new ArrayList<>();
    String conversationFailure = null;
    try {
      Path trace = ConversationTrace.generate(java, existing(corpusJar, "--corpus-jar"), work);
      for (int count : quick ? new int[] {100_000} : new int[] {100_000, 1_000_000}) {
        Path queue = ConversationTrace.queue(trace, work, count, now);
        conversation.add(AnalyzerThroughput.run(java, analyzer, queue, count, true, now, work));
      }
    } catch (Exception e) {
      conversationFailure = e.getMessage();
    }
    String conversationFailed = conversationFailure;
    return () -> {
      AnalyzerStartup.print(fixed);
      AnalyzerStartup.print(used);
      newest.forEach(AnalyzerStartup::print);
      printAnalyzer(runs);
      printConversation(conversation, conversationFailed);
    };
  }

  /** 4. {@code watch}: the append-to-appraisal delay in three scenarios. */
  private Runnable watch(String java, Path vigil, Path analyzer, Path work) throws Exception {
    int live = watchCalls != null ? watchCalls : quick ? 200 : 2000;
    List<WatchDelay.Figure> figures = new ArrayList<>();
    figures.add(
        WatchDelay.measure(java, vigil, analyzer, work, "deposits only", 20, live, List.of()));
    figures.add(
        WatchDelay.measure(
            java, vigil, analyzer, work, "bank of 100,000 events", 100_000, live, List.of()));
    figures.add(
        WatchDelay.measure(
            java,
            vigil,
            analyzer,
            work,
            "a pass every 200 events",
            20,
            live,
            List.of("--after-events", "200")));
    return () -> printWatch(figures);
  }

  private static void printPerCall(
      Map<String, double[]> withVigil, Map<String, double[]> withOtel, Path otel, boolean quick) {
    System.out.println(
        "per instrumented call (JMH sample mode, "
            + (quick ? "1 fork" : PER_CALL_FORKS + " forks")
            + " each, ns/call: mean ± "
            + "99.9% error, and median; added = instrumented - uninstrumented call, in JVMs started with the same agent; "
            + "goal: Vigil adds at most 0.5 x what the OpenTelemetry agent adds):");
    for (Map.Entry<String, String> shape : PER_CALL_SHAPES.entrySet()) {
      double[] vigil = withVigil.get(shape.getKey());
      double[] other = withOtel.get(shape.getKey());
      if (vigil == null || other == null) {
        continue;
      }
      System.out.println("  " + shape.getKey() + ", " + shape.getValue() + ":");
      line("uninstrumented call (Vigil's JVM)", vigil, 0, null);
      line("Vigil", vigil, 3, vigil);
      line("uninstrumented call (OTel's JVM)", other, 0, null);
      line("OpenTelemetry agent " + otelVersion(otel), other, 3, other);
      double vigilAdded = vigil[3] - vigil[0];
      double otelAdded = other[3] - other[0];
      double medianRatio = (vigil[5] - vigil[2]) / (other[5] - other[2]);
      System.out.printf(
          "    Vigil adds %.2f x the OpenTelemetry agent's added time on the mean, %.2f x on the median "
              + "(goal: at most 0.5 x)%n",
          vigilAdded / otelAdded, medianRatio);
    }
  }

  /** The per-call benchmark's shapes ({@link AgentCallBenchmark}), in the order printed. */
  private static final Map<String, String> PER_CALL_SHAPES = perCallShapes();

  private static Map<String, String> perCallShapes() {
    Map<String, String> shapes = new LinkedHashMap<>();
    shapes.put("fresh", "forecast(String built per call, new record Query) -> new record Forecast");
    shapes.put("objects", "plan(new bean Trip) -> new LinkedHashMap of three entries");
    shapes.put("literal", "tool(\"in 30 minutes\", int) -> String built per call");
    return shapes;
  }

  /** Forks of each shape's two benchmarks, a full run. */
  private static final int PER_CALL_FORKS = 3;

  private static void printStartup(
      List<StartupTimes.Figure> startup,
      int startupRuns,
      double vigilReady,
      int recorded,
      int spilled,
      int launches) {
    System.out.println(
        "start-up, a process whose main calls an instrumented tool at once and exits (median of "
            + startupRuns
            + " launches, ms from launch; goal: Vigil adds at most 150 ms to the whole process):");
    StartupTimes.Figure plain = startup.get(0);
    for (StartupTimes.Figure f : startup) {
      System.out.printf(
          "  %-6s whole process %7.1f ms, added %7.1f ms   (main %6.1f ms, tool answered %7.1f ms)%n",
          f.name(), f.wholeMs(), f.wholeMs() - plain.wholeMs(), f.toMainMs(), f.toolMs());
    }
    System.out.printf(
        "  (Vigil recorded %d of the %d calls of its launches, %d of them through spill files imported"
            + " afterwards; its instrumentation was ready in the background %.0f ms after premain"
            + " began; the tool's class waits for it)%n",
        recorded, launches, spilled, vigilReady);
  }

  private static void printBoot(List<BootStartup.Figure> figures) {
    BootStartup.Figure plain = figures.get(0);
    System.out.println(
        "start-up, a Spring Boot LangChain4j application (vigil-bench/support-agent) from launch to "
            + "its first served chat request, which calls a @Tool (median of "
            + plain.measured()
            + " launches"
            + (plain.launches() > plain.measured()
                ? " after " + (plain.launches() - plain.measured()) + " discarded"
                : "")
            + ", s; goal: Vigil adds at most 10 %):");
    for (BootStartup.Figure f : figures) {
      if (f.failure() != null) {
        System.out.printf("  %-6s FAILED: %s%n", f.name(), f.failure());
        continue;
      }
      String added =
          f == plain
              ? ""
              : String.format(
                  "  added %6.2f s (%+.1f %%)",
                  (f.medianMs() - plain.medianMs()) / 1e3,
                  100 * (f.medianMs() - plain.medianMs()) / plain.medianMs());
      System.out.printf("  %-6s %6.2f s%s%n", f.name(), f.medianMs() / 1e3, added);
    }
    StringBuilder checks = new StringBuilder("  (the model was sent the booking by the tool ");
    for (BootStartup.Figure f : figures) {
      checks
          .append(f.name())
          .append(' ')
          .append(f.toolResults())
          .append('/')
          .append(f.launches())
          .append(", ");
    }
    BootStartup.Figure vigil =
        figures.stream().filter(f -> f.name().equals("vigil")).findFirst().orElse(plain);
    checks
        .append("of the launches; Vigil recorded ")
        .append(vigil.recorded())
        .append(" of its ")
        .append(vigil.launches())
        .append(" tool calls as ")
        .append(BootStartup.TOOL_KIND)
        .append(')');
    System.out.println(checks);
  }

  private static void printAnalyzer(List<AnalyzerThroughput.Figure> analyzerFigures) {
    System.out.println(
        "analyzer run, whole process, -Xmx512m (events/s; heap from the GC log: peak in use, "
            + "most live after a GC; max RSS of the process; goal: 1,000,000 events/s at 10^6). 'newest 500': the "
            + "default --limit, every line read and checked, the newest 500 appraised and diagnosed; 'every event': "
            + "--limit N, all N appraised, deposited and diagnosed in one pass; CPU: the process's user and "
            + "system time, and the JIT compiler threads' share of it (their ticks in /proc, sampled every "
            + JitShare.EVERY_MS
            + " ms):");
    for (AnalyzerThroughput.Figure f : analyzerFigures) {
      String mode = f.everyEvent() ? "every event" : "newest 500 ";
      if (f.failure() != null) {
        System.out.printf(
            "  %,9d events, %s  FAILED after %.2f s (%s); heap peak %d MB, RSS %d MB%n",
            f.events(), mode, f.seconds(), f.failure(), f.peakHeapMb(), f.maxRssMb());
        continue;
      }
      System.out.printf(
          "  %,9d events, %s  %6.2f s  %,10.0f events/s  heap peak %4d MB, live %4d MB, %3d GCs, "
              + "RSS %4d MB, exit %d, %s%n",
          f.events(),
          mode,
          f.seconds(),
          f.eventsPerSecond(),
          f.peakHeapMb(),
          f.liveHeapMb(),
          f.collections(),
          f.maxRssMb(),
          f.exit(),
          cpu(f));
    }
  }

  private static void printConversation(List<AnalyzerThroughput.Figure> figures, String failure) {
    System.out.println(
        "analyzer run over a conversation trace, in a queue, every event used (the labelled corpus's "
            + "generator, seed "
            + ConversationTrace.SEED
            + ", its events copied with new sessions, turns and call ids; user messages and answers "
            + "that the conversation detectors read; goals: 200,000 events/s at 10^5, 1,000,000 at "
            + "10^6):");
    if (failure != null) {
      System.out.println("  FAILED: " + failure);
    }
    for (AnalyzerThroughput.Figure f : figures) {
      if (f.failure() != null) {
        System.out.printf(
            "  %,9d events  FAILED after %.2f s (%s)%n", f.events(), f.seconds(), f.failure());
        continue;
      }
      System.out.printf(
          "  %,9d events  %6.2f s  %,10.0f events/s  heap peak %4d MB, live %4d MB, RSS %4d MB, "
              + "%s%n",
          f.events(),
          f.seconds(),
          f.eventsPerSecond(),
          f.peakHeapMb(),
          f.liveHeapMb(),
          f.maxRssMb(),
          cpu(f));
    }
  }

  /** The run's CPU and the JIT's share of it, or what is unknown. */
  private static String cpu(AnalyzerThroughput.Figure f) {
    if (f.cpuSeconds() <= 0) {
      return "CPU unknown";
    }
    String jit =
        f.jitShare() < 0 ? "JIT unknown" : String.format("JIT %.0f %%", 100 * f.jitShare());
    return String.format("CPU %.2f s, %s", f.cpuSeconds(), jit);
  }

  private static void printWatch(List<WatchDelay.Figure> watchFigures) {
    System.out.println(
        "watch, append-to-appraisal delay (a tool called every "
            + WatchDelay.PACE_MS
            + " ms under "
            + "Vigil; from the append to the commit of its appraisal in the EmoBank; goal: p99 under 5 ms):");
    for (WatchDelay.Figure f : watchFigures) {
      if (f.failure() != null) {
        System.out.printf("  %-24s FAILED: %s%n", f.scenario(), f.failure());
        continue;
      }
      System.out.printf(
          "  %-24s median %6.1f ms, p99 %6.1f ms over %,d live calls (backlog of %,d deposited "
              + "first)%n",
          f.scenario(), f.medianMs(), f.p99Ms(), f.calls(), f.backlog());
    }
  }

  /**
   * One row of the per-call table: mean ± error and median, and what was added to the baseline's.
   */
  private static void line(String label, double[] figures, int at, double[] baselineOf) {
    String added =
        baselineOf == null
            ? ""
            : String.format(
                "   added %5.0f ns (median %5.0f ns)",
                figures[at] - baselineOf[0], figures[at + 2] - baselineOf[2]);
    System.out.printf(
        "  %-34s %7.0f ± %4.0f ns, median %7.0f ns%s%n",
        label, figures[at], figures[at + 1], figures[at + 2], added);
  }

  /**
   * For each shape of call, the baseline's mean, error, median, then the instrumented call's mean,
   * error, median: JMH in sample mode (every call timed, so the median is at hand beside the mean)
   * in forks started with the agent's options. JMH gives every benchmark forks of its own, and one
   * fork's code layout can differ from another's by as much as the figure measured, so there are
   * several of each.
   */
  private static Map<String, double[]> perCall(String label, List<String> jvmArgs, boolean quick)
      throws Exception {
    System.out.println();
    System.out.println("--- per call, " + label + ": " + String.join(" ", jvmArgs));
    Options options =
        new OptionsBuilder()
            .include(AgentCallBenchmark.class.getName())
            .mode(Mode.SampleTime)
            .forks(quick ? 1 : PER_CALL_FORKS)
            .warmupIterations(quick ? 3 : 5)
            .warmupTime(TimeValue.seconds(1))
            .measurementIterations(quick ? 3 : 6)
            .measurementTime(TimeValue.seconds(1))
            .timeUnit(TimeUnit.NANOSECONDS)
            .jvmArgsAppend(jvmArgs.toArray(String[]::new))
            .build();
    Collection<RunResult> results = new Runner(options).run();
    Map<String, double[]> out = new LinkedHashMap<>();
    for (RunResult r : results) {
      String name = r.getParams().getBenchmark();
      double[] figures = out.computeIfAbsent(r.getParams().getParam("shape"), s -> new double[6]);
      int at = name.endsWith("baseline") ? 0 : 3;
      figures[at] = r.getPrimaryResult().getScore();
      figures[at + 1] = r.getPrimaryResult().getScoreError();
      figures[at + 2] = r.getPrimaryResult().getStatistics().getPercentile(50);
    }
    return out;
  }

  /**
   * The queues, events and outputs of the run (gigabytes of queue from the per-call benchmark) go.
   */
  /**
   * The analyzer as the benchmarks run it in a child JVM: {@code java -Xmx512m -jar
   * vigil-analyzer.jar ARGS}.
   */
  static List<String> analyzerCommand(String java, Path analyzerJar, String... args) {
    List<String> cmd = new ArrayList<>(List.of(java, "-Xmx512m", "-jar", analyzerJar.toString()));
    cmd.addAll(List.of(args));
    return cmd;
  }

  /** Deletes {@code root} and everything under it, when it exists. */
  static void deleteTree(Path root) throws java.io.IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (java.util.stream.Stream<Path> paths = Files.walk(root)) {
      for (Path p : (Iterable<Path>) paths.sorted(java.util.Comparator.reverseOrder())::iterator) {
        Files.deleteIfExists(p);
      }
    }
  }

  private static String otelVersion(Path otel) {
    try (java.util.jar.JarFile jar = new java.util.jar.JarFile(otel.toFile())) {
      String v = jar.getManifest().getMainAttributes().getValue("Implementation-Version");
      return v == null ? "" : v;
    } catch (Exception e) {
      return "";
    }
  }

  /**
   * The jar at {@code path}, made absolute; a usage error naming the option when it is not there.
   */
  private Path existing(Path path, String option) {
    Path p = path.toAbsolutePath();
    if (!Files.isRegularFile(p)) {
      throw new ParameterException(
          spec.commandLine(),
          option + " " + p + " not found: build it first (bench/run.sh " + "does)");
    }
    return p;
  }

  /** {@code --work-root}'s directory, or a usage error naming it. */
  private Path existingDirectory(Path path) {
    Path p = path.toAbsolutePath();
    if (!Files.isDirectory(p)) {
      throw new ParameterException(spec.commandLine(), "--work-root " + p + " is not a directory");
    }
    return p;
  }
}
