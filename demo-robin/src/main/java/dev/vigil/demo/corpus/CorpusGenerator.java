package dev.vigil.demo.corpus;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.demo.ReminderBackend;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * Generates the labelled corpus (docs/EVAL.md): plans the sessions from a seed ({@link
 * CorpusPlan}), plays the shop's and Robin's in two child JVMs under {@code -javaagent:vigil.jar}
 * (their stand-in models follow the scripts, their tools run for real, Robin's against the loopback
 * reminder backend), exports both queues with {@code vigil-analyzer.jar export} into one {@code
 * events.jsonl}, and writes {@code labels.jsonl} (from what was planted), {@code manifest.jsonl}
 * (each session's scenario and the detector built to catch it) and {@code rules.json} (the shop's
 * written policy as policy rules).
 *
 * <p>Usage: {@code CorpusGenerator [--root DIR] [--out DIR] [--work DIR] [--seed N]}; the defaults
 * write {@code samples/corpus} from seed {@value #SEED}.
 */
public final class CorpusGenerator {
  /** The seed of the committed corpus. */
  static final long SEED = 18;

  /** The backend's delays are multiplied by this (receipts 0.8 s after a reminder is accepted). */
  static final double TIME_SCALE = 0.1;

  private static final ObjectMapper JSON = new ObjectMapper();

  private CorpusGenerator() {}

  public static void main(String[] args) throws Exception {
    Path root = Path.of(".");
    Path out = null;
    Path work = null;
    long seed = SEED;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--root" -> root = Path.of(args[++i]);
        case "--out" -> out = Path.of(args[++i]);
        case "--work" -> work = Path.of(args[++i]);
        case "--seed" -> seed = Long.parseLong(args[++i]);
        default -> {
          System.err.println(
              "unknown argument "
                  + args[i]
                  + "; usage: CorpusGenerator [--root DIR] [--out DIR] [--work DIR] [--seed N]");
          System.exit(2);
        }
      }
    }
    root = root.toAbsolutePath().normalize();
    out = (out == null ? root.resolve("samples/corpus") : out).toAbsolutePath().normalize();
    work =
        (work == null ? root.resolve("demo-robin/target/corpus") : work)
            .toAbsolutePath()
            .normalize();
    generate(root, out, work, seed, System.out);
  }

  static void generate(Path root, Path out, Path work, long seed, PrintStream log)
      throws Exception {
    Path agent = root.resolve("vigil-javaagent/target/vigil.jar");
    Path analyzer = root.resolve("vigil-analyzer/target/vigil-analyzer.jar");
    Path shopJar = root.resolve("demo-robin/shop/target/shop.jar");
    for (Path p : List.of(agent, analyzer, shopJar)) {
      if (!Files.exists(p)) {
        throw new IllegalStateException(
            p + " is missing: build first with ./mvnw -B -DskipTests package");
      }
    }
    List<Path> classpath = List.of(shopJar, root.resolve("demo-robin/shop/target/lib/*"));
    deleteTree(work);
    Files.createDirectories(work);
    Files.createDirectories(out);

    CorpusPlan plan = CorpusPlan.of(seed);
    Path shopScript = writeLines(work.resolve("shop-script.jsonl"), plan.shop());
    Path robinScript = writeLines(work.resolve("robin-script.jsonl"), plan.robin());
    log.println(
        "corpus: seed "
            + seed
            + ", "
            + plan.shop().size()
            + " shop sessions, "
            + plan.robin().size()
            + " Robin sessions ("
            + plan.planted().stream().filter(Planted::failed).count()
            + " failed)");

    Path shopQueue = work.resolve("shop-queue");
    runShop(root, agent, classpath, shopQueue, shopScript, work, log);
    Path robinQueue = work.resolve("robin-queue");
    runRobin(root, agent, classpath, robinQueue, robinScript, plan.lostReminders(), work, log);

    Path events = out.resolve("events.jsonl");
    List<String> lines =
        new ArrayList<>(export(analyzer, shopQueue, work.resolve("shop-events.jsonl"), work));
    lines.addAll(export(analyzer, robinQueue, work.resolve("robin-events.jsonl"), work));
    Files.write(events, lines, StandardCharsets.UTF_8);
    writeLabels(out, plan.planted());
    Files.copy(
        root.resolve("demo-robin/shop/vigil-rules.json"),
        out.resolve("rules.json"),
        StandardCopyOption.REPLACE_EXISTING);
    check(lines, plan.planted(), log);
    log.println(
        "corpus: "
            + lines.size()
            + " events in "
            + events
            + "; labels.jsonl, manifest.jsonl, rules.json "
            + "beside it");
  }

  /** Runs the scripted shop sessions under the agent. */
  private static void runShop(
      Path root,
      Path agent,
      List<Path> classpath,
      Path shopQueue,
      Path shopScript,
      Path work,
      PrintStream log)
      throws Exception {
    log.println("corpus: the shop under -javaagent:vigil.jar");
    ChildJvm.run(
        ChildJvm.underAgent(
            agent, shopQueue, classpath, "com.example.shop.Shop", shopScript.toString()),
        Map.of(
            "VIGIL_AGENT_NAME",
            "shop",
            "SHOP_PROMPT",
            root.resolve("demo-robin/shop/prompt/system-prompt.txt").toString()),
        work,
        work.resolve("shop.out"),
        600);
  }

  /**
   * Runs the scripted Robin sessions under the agent, against a backend that loses the planned
   * reminders.
   */
  private static void runRobin(
      Path root,
      Path agent,
      List<Path> classpath,
      Path robinQueue,
      Path robinScript,
      Set<String> lost,
      Path work,
      PrintStream log)
      throws Exception {
    log.println(
        "corpus: Robin under -javaagent:vigil.jar, "
            + lost.size()
            + " reminders lost by the backend");
    try (ReminderBackend backend = ReminderBackend.start(TIME_SCALE, lost::contains, true)) {
      Map<String, String> env = new TreeMap<>();
      env.put("ROBIN_BACKEND_URL", backend.url());
      env.put("ROBIN_USER_ZONE", "UTC");
      env.put("ROBIN_PROMPT", root.resolve("demo-robin/robin/prompt/system-prompt.txt").toString());
      env.put("VIGIL_AGENT_NAME", "robin");
      env.put(
          "VIGIL_METHODS_INCLUDE",
          "com.example.robin.ReminderClient[schedule,cancel];com.example.robin.ReceiptInbox[onReceipt]");
      env.put(
          "VIGIL_KINDS",
          "com.example.robin.ReminderClient#schedule=backend.schedule;"
              + "com.example.robin.ReminderClient#cancel=backend.cancel;"
              + "com.example.robin.ReceiptInbox#onReceipt=reminder.receipt");
      ChildJvm.run(
          ChildJvm.underAgent(
              agent,
              robinQueue,
              classpath,
              "com.example.scripted.RobinSessions",
              robinScript.toString()),
          env,
          work,
          work.resolve("robin.out"),
          600);
    }
  }

  private static List<String> export(Path analyzer, Path queue, Path file, Path work)
      throws Exception {
    ChildJvm.run(
        List.of(
            ChildJvm.java(),
            "-jar",
            analyzer.toString(),
            "export",
            "--queue",
            queue.toString(),
            "--out",
            file.toString()),
        Map.of(),
        work,
        work.resolve("export.out"),
        120);
    return Files.readAllLines(file, StandardCharsets.UTF_8);
  }

  private static void writeLabels(Path out, List<Planted> planted) throws IOException {
    List<String> labels = new ArrayList<>();
    List<String> manifest = new ArrayList<>();
    for (Planted s : planted) {
      labels.add(
          JSON.writeValueAsString(
              JSON.createObjectNode().put("session", s.session()).put("failed", s.failed())));
      manifest.add(
          JSON.writeValueAsString(
              JSON.createObjectNode()
                  .put("session", s.session())
                  .put("agent", s.agent())
                  .put("kind", s.kind())
                  .put("failed", s.failed())
                  .put("target", s.target())));
    }
    Files.write(out.resolve("labels.jsonl"), labels, StandardCharsets.UTF_8);
    Files.write(out.resolve("manifest.jsonl"), manifest, StandardCharsets.UTF_8);
  }

  /**
   * Says how many planned sessions have events of their own (all of them once the agent records
   * sessions).
   */
  private static void check(List<String> lines, List<Planted> planted, PrintStream log)
      throws IOException {
    Set<String> seen = new TreeSet<>();
    Map<String, Integer> kinds = new TreeMap<>();
    for (String line : lines) {
      JsonNode e = JSON.readTree(line);
      if (e.hasNonNull("session")) {
        seen.add(e.get("session").asText());
      }
      kinds.merge(e.path("kind").asText(), 1, Integer::sum);
    }
    long found = planted.stream().filter(s -> seen.contains(s.session())).count();
    log.println(
        "corpus: "
            + found
            + " of "
            + planted.size()
            + " sessions have events of their own; event kinds "
            + kinds);
  }

  private static Path writeLines(Path file, List<ObjectNode> nodes) throws IOException {
    List<String> lines = new ArrayList<>();
    for (ObjectNode n : nodes) {
      lines.add(JSON.writeValueAsString(n));
    }
    return Files.write(file, lines, StandardCharsets.UTF_8);
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
