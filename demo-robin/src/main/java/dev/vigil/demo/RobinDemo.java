package dev.vigil.demo;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The demo (demo-robin/README.md): Robin runs under {@code -javaagent:vigil.jar} (configured by the
 * agent argument and environment only), Vigil analyzes the run with {@code --prompt} and {@code
 * --repo}, the proposed diffs are applied to a copy of Robin with {@code git apply} together with
 * the new prompt, the copy is rebuilt and runs the same requests, Vigil analyzes again, and the
 * before/after table is printed and written to {@code summary.json}.
 *
 * <p>Usage: {@code RobinDemo [--root DIR] [--requests FILE] [--time-scale X] [--work DIR]}.
 */
@Command(
    name = "RobinDemo",
    sortOptions = false,
    description =
        "Runs Robin under Vigil, applies Vigil's proposals to a copy, runs the copy on the same requests "
            + "and prints the before/after table.")
public final class RobinDemo implements Callable<Integer> {
  /** Robin's users live here; the naive times Robin's model passes are local times in this zone. */
  static final ZoneId USER_ZONE = ZoneId.of("Europe/Paris");

  /**
   * The backend delays are multiplied by this (receipts in 0.8 s instead of 8 s, parked ones in 9.7
   * s).
   */
  static final double DEFAULT_TIME_SCALE = 0.1;

  private static final ObjectMapper JSON = new ObjectMapper();

  // picocli sets it and prints the help itself
  @SuppressWarnings("UnusedVariable")
  @Option(
      names = {"-h", "--help"},
      usageHelp = true,
      description = "Shows this help and exits.")
  private boolean help;

  @Option(
      names = "--root",
      paramLabel = "DIR",
      defaultValue = ".",
      description =
          "The Vigil checkout whose jars and Robin are built (default: the working directory).")
  private Path root;

  @Option(
      names = "--requests",
      paramLabel = "FILE",
      description = "Reminder requests, one a line (default: the demo's own).")
  private Path requests;

  @Option(
      names = "--time-scale",
      paramLabel = "X",
      defaultValue = "" + DEFAULT_TIME_SCALE,
      description =
          "Multiplies the backend's delays (default: ${DEFAULT-VALUE}; 1.0 for real time).")
  private double timeScale;

  @Option(
      names = "--work",
      paramLabel = "DIR",
      description =
          "Where everything is written, wiped first (default: demo-robin/target/demo under the root).")
  private Path work;

  /** Where things are. */
  record Layout(Path root, Path work, Path requests, double timeScale) {
    Path agentJar() {
      return root.resolve("vigil-javaagent/target/vigil.jar");
    }

    Path analyzerJar() {
      return root.resolve("vigil-analyzer/target/vigil-analyzer.jar");
    }

    Path robinSource() {
      return root.resolve("demo-robin/robin");
    }

    Path robinLib() {
      return root.resolve("demo-robin/robin/target/lib");
    }
  }

  /** What one side of the demo produced. */
  record Side(
      String name,
      Path dir,
      Path robin,
      Path queue,
      Path vigilOut,
      Path emobank,
      Path events,
      int analyzerExit,
      RunMetrics metrics) {}

  public static void main(String[] args) {
    System.exit(new CommandLine(new RobinDemo()).execute(args));
  }

  @Override
  public Integer call() throws Exception {
    Path r = root.toAbsolutePath().normalize();
    Path w =
        (work == null ? r.resolve("demo-robin/target/demo") : work).toAbsolutePath().normalize();
    return run(new Layout(r, w, requests, timeScale), System.out);
  }

  /** Runs the whole demo; returns the exit code. */
  static int run(Layout layout, PrintStream out) throws Exception {
    Path requestsFile = prepareWork(layout);
    List<Request> requests = Request.parse(Files.readAllLines(requestsFile));

    out.println("== before: Robin as shipped, under -javaagent:vigil.jar");
    Path beforeRobin = RobinCopy.copy(layout.robinSource(), layout.work().resolve("before/robin"));
    Side before = side("before", layout, beforeRobin, requestsFile, requests, out);

    out.println("== Vigil's proposals, applied to a copy of Robin with git apply");
    Path afterRobin = RobinCopy.copy(layout.robinSource(), layout.work().resolve("after/robin"));
    List<String> applied = applyProposals(before.vigilOut(), afterRobin, out);
    Path newPrompt = before.vigilOut().resolve("new_prompt.txt");
    if (Files.exists(newPrompt)) {
      Files.copy(
          newPrompt,
          afterRobin.resolve("prompt/system-prompt.txt"),
          java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      out.println("   new prompt: " + newPrompt);
    }

    out.println("== after: the patched copy, rebuilt, the same requests");
    Side after = side("after", layout, afterRobin, requestsFile, requests, out);

    Path summaryFile = writeSummary(layout, before, after, applied, newPrompt, requests.size());
    printResults(layout, before, after, summaryFile, out);
    return 0;
  }

  /**
   * Checks that the jars are built and makes an empty work directory with the requests in it.
   *
   * @return the requests file
   */
  private static Path prepareWork(Layout layout) throws IOException {
    for (Path p : List.of(layout.agentJar(), layout.analyzerJar(), layout.robinLib())) {
      if (!Files.exists(p)) {
        throw new IllegalStateException(
            p + " is missing: build first with ./mvnw -B -DskipTests package");
      }
    }
    deleteTree(layout.work());
    Files.createDirectories(layout.work());
    Path requestsFile = layout.work().resolve("requests.txt");
    if (layout.requests() != null) {
      Files.copy(layout.requests(), requestsFile);
    } else {
      try (InputStream in = RobinDemo.class.getResourceAsStream("requests.txt")) {
        Files.copy(in, requestsFile);
      }
    }
    return requestsFile;
  }

  /**
   * Writes {@code summary.json}: both sides' metrics, the proposals applied and the new prompt.
   *
   * @return the summary file
   */
  private static Path writeSummary(
      Layout layout, Side before, Side after, List<String> applied, Path newPrompt, int requests)
      throws IOException {
    ObjectNode summary = JSON.createObjectNode();
    summary.set("before", before.metrics().toJson());
    summary.set("after", after.metrics().toJson());
    summary.put("time_scale", layout.timeScale());
    summary.put("proposal", applied.isEmpty() ? null : applied.get(0));
    var all = summary.putArray("proposals");
    applied.forEach(all::add);
    summary.put("prompt", Files.exists(newPrompt) ? newPrompt.toString() : null);
    summary.put("requests", requests);
    summary.put("user_zone", USER_ZONE.getId());
    Path summaryFile = layout.work().resolve("summary.json");
    Files.writeString(
        summaryFile, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(summary) + "\n");
    return summaryFile;
  }

  /** Prints the before/after table and where the summary and both reports are. */
  private static void printResults(
      Layout layout, Side before, Side after, Path summaryFile, PrintStream out) {
    out.println();
    out.print(Table.of(before.metrics(), after.metrics(), layout.timeScale()));
    out.println();
    out.println("summary: " + summaryFile);
    out.println(
        "reports: "
            + before.vigilOut().resolve("report.md")
            + ", "
            + after.vigilOut().resolve("report.md"));
    out.println(
        "open in a browser: before "
            + before.vigilOut().resolve("report.html")
            + ", after "
            + after.vigilOut().resolve("report.html"));
  }

  private static Side side(
      String name,
      Layout layout,
      Path robin,
      Path requestsFile,
      List<Request> requests,
      PrintStream out)
      throws Exception {
    Path dir = robin.getParent();
    Path classes = RobinCopy.compile(robin, RobinCopy.libraries(layout.robinLib()));
    Path queue = dir.resolve("queue");
    runRobin(name, layout, robin, classes, queue, requestsFile, requests, out);
    Path vigilOut = dir.resolve("vigil");
    Path emobank = dir.resolve("emobank");
    int analyzerExit = runAnalyzer(name, layout, robin, queue, emobank, vigilOut);
    Files.readAllLines(dir.resolve("vigil.out")).forEach(l -> out.println("   | " + l));
    Path events = dir.resolve("events.jsonl");
    export(name, layout, queue, events, dir);
    RunMetrics metrics =
        RunMetrics.of(events, emobank.resolve("emotions.jsonl"), requests, USER_ZONE);
    return new Side(name, dir, robin, queue, vigilOut, emobank, events, analyzerExit, metrics);
  }

  /**
   * Runs Robin under {@code -javaagent:vigil.jar} over the requests, against a reminder backend of
   * its own.
   */
  private static void runRobin(
      String name,
      Layout layout,
      Path robin,
      Path classes,
      Path queue,
      Path requestsFile,
      List<Request> requests,
      PrintStream out)
      throws Exception {
    Path dir = robin.getParent();
    try (ReminderBackend backend = ReminderBackend.start(layout.timeScale())) {
      List<String> cmd =
          List.of(
              java(),
              "-javaagent:" + layout.agentJar() + "=queue.dir=" + queue,
              "-cp",
              classes + File.pathSeparator + layout.robinLib() + File.separator + "*",
              "com.example.robin.Robin",
              requestsFile.toString());
      Map<String, String> env = new TreeMap<>();
      env.put("ROBIN_BACKEND_URL", backend.url());
      env.put("ROBIN_USER_ZONE", USER_ZONE.getId());
      env.put("ROBIN_PROMPT", robin.resolve("prompt/system-prompt.txt").toString());
      env.put("VIGIL_AGENT_NAME", "robin");
      env.put(
          "VIGIL_METHODS_INCLUDE",
          "com.example.robin.ReminderClient[schedule,cancel];com.example.robin.ReceiptInbox[onReceipt]");
      env.put(
          "VIGIL_KINDS",
          "com.example.robin.ReminderClient#schedule=backend.schedule;"
              + "com.example.robin.ReminderClient#cancel=backend.cancel;"
              + "com.example.robin.ReceiptInbox#onReceipt=reminder.receipt");
      putLlmSettings(env);
      int exit = exec(cmd, env, robin, dir.resolve("robin.out"), 300);
      if (exit != 0) {
        throw new IllegalStateException(
            name + ": Robin exited with " + exit + ", see " + dir.resolve("robin.out"));
      }
      out.println(
          "   Robin answered "
              + requests.size()
              + " reminder requests; the backend refused "
              + backend.refusals()
              + " first attempts as busy");
    }
  }

  /** Robin's LLM settings: each {@code VIGIL_LLM_*} variable set here, as {@code ROBIN_LLM_*}. */
  private static void putLlmSettings(Map<String, String> env) {
    for (String v : List.of("BASE_URL", "MODEL", "API_KEY")) {
      String value = System.getenv("VIGIL_LLM_" + v);
      if (value != null && !value.isBlank()) {
        env.put("ROBIN_LLM_" + v, value);
      }
    }
  }

  /**
   * Runs Vigil's pass over Robin's queue, with its prompt and repository.
   *
   * @return the analyzer's exit code
   * @throws IllegalStateException when the analyzer refused its input
   */
  private static int runAnalyzer(
      String name, Layout layout, Path robin, Path queue, Path emobank, Path vigilOut)
      throws Exception {
    Path dir = robin.getParent();
    int analyzerExit =
        exec(
            List.of(
                java(),
                "-jar",
                layout.analyzerJar().toString(),
                "run",
                "--queue",
                queue.toString(),
                "--emobank",
                emobank.toString(),
                "--out",
                vigilOut.toString(),
                "--prompt",
                robin.resolve("prompt/system-prompt.txt").toString(),
                "--repo",
                robin.toString(),
                "--repo-classpath",
                layout.robinLib() + File.separator + "*"),
            Map.of(),
            dir,
            dir.resolve("vigil.out"),
            300);
    if (analyzerExit == 2) {
      throw new IllegalStateException(
          name + ": the analyzer refused its input, see " + dir.resolve("vigil.out"));
    }
    return analyzerExit;
  }

  /** Exports Robin's queue to {@code events} as JSON lines, for the run's metrics. */
  private static void export(String name, Layout layout, Path queue, Path events, Path dir)
      throws Exception {
    int exportExit =
        exec(
            List.of(
                java(),
                "-jar",
                layout.analyzerJar().toString(),
                "export",
                "--queue",
                queue.toString(),
                "--out",
                events.toString()),
            Map.of(),
            dir,
            dir.resolve("export.out"),
            120);
    if (exportExit != 0) {
      throw new IllegalStateException(name + ": export failed, see " + dir.resolve("export.out"));
    }
  }

  /**
   * Applies each proposal that {@code git apply --check} accepts, in the order Vigil ranked them.
   */
  private static List<String> applyProposals(Path vigilOut, Path robin, PrintStream out)
      throws Exception {
    Path proposals = vigilOut.resolve("proposals");
    List<Path> diffs = new ArrayList<>();
    if (Files.isDirectory(proposals)) {
      try (Stream<Path> s = Files.list(proposals)) {
        s.filter(
                p ->
                    p.getFileName().toString().startsWith("patch_")
                        && p.toString().endsWith(".diff"))
            .sorted(Comparator.comparing(Path::toString))
            .forEach(diffs::add);
      }
    }
    List<String> applied = new ArrayList<>();
    // the copy may sit inside a git work tree (this project's): git must not look above it, or it
    // would take
    // the diff's paths as relative to that work tree and quietly skip them
    Map<String, String> alone = Map.of("GIT_CEILING_DIRECTORIES", robin.getParent().toString());
    for (Path diff : diffs) {
      Path log = robin.getParent().resolve("git-apply.out");
      if (exec(List.of("git", "apply", "--check", diff.toString()), alone, robin, log, 60) == 0
          && exec(List.of("git", "apply", "--verbose", diff.toString()), alone, robin, log, 60)
              == 0) {
        applied.add(diff.toString());
        out.println("   applied " + diff.getFileName() + " (" + files(diff) + ")");
      } else {
        out.println(
            "   did not apply " + diff.getFileName() + ": " + Files.readString(log).strip());
      }
    }
    if (diffs.isEmpty()) {
      out.println("   Vigil proposed no code change");
    }
    return applied;
  }

  private static String files(Path diff) throws IOException {
    return Files.readAllLines(diff).stream()
        .filter(l -> l.startsWith("+++ b/"))
        .map(l -> l.substring(6))
        .collect(Collectors.joining(", "));
  }

  private static int exec(
      List<String> cmd, Map<String, String> env, Path dir, Path log, int timeoutSec)
      throws IOException, InterruptedException {
    ProcessBuilder pb =
        new ProcessBuilder(cmd)
            .directory(dir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    pb.environment().putAll(env);
    Process p = pb.start();
    if (!p.waitFor(timeoutSec, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException(
          String.join(" ", cmd) + " did not finish in " + timeoutSec + " s");
    }
    return p.exitValue();
  }

  private static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  private RobinDemo() {}
}
