package dev.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher {@code bin/vigil} (docs/COMMANDS.md#the-launcher-binvigil): the first short command
 * records a class-data-sharing archive, later commands map the analyzer's classes from it and give
 * the same results, {@code run} is compiled by C1 alone, {@code watch} and {@code VIGIL_CDS=off}
 * record none, and a missing jar is named.
 */
class LauncherIT {
  private static final Path LAUNCHER = Path.of("..", "bin", "vigil").toAbsolutePath().normalize();
  private static final Path JAR =
      Path.of(System.getProperty("vigil.analyzer.jar", "target/vigil-analyzer.jar"))
          .toAbsolutePath();
  private static final Path SAMPLE = Path.of("..", "samples", "robin-a.jsonl").toAbsolutePath();
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir Path tmp;

  private record Result(int exit, String out, String err) {}

  private Result launch(Map<String, String> env, String... args) throws Exception {
    List<String> command = new ArrayList<>(List.of(LAUNCHER.toString()));
    command.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(command);
    pb.environment().put("VIGIL_JAR", JAR.toString());
    pb.environment().put("VIGIL_CDS_DIR", tmp.resolve("cds").toString());
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().remove("VIGIL_JAVA_OPTS");
    pb.environment().putAll(env);
    Path out = tmp.resolve("stdout");
    Path err = tmp.resolve("stderr");
    Process p = pb.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "the launcher did not finish");
    return new Result(
        p.exitValue(),
        Files.readString(out, StandardCharsets.UTF_8),
        Files.readString(err, StandardCharsets.UTF_8));
  }

  private String[] run(String out) {
    return new String[] {
      "run", "--events", SAMPLE.toString(), "--now", "2025-10-31T13:00:00Z", "--out", out
    };
  }

  private List<Path> cdsFiles() throws IOException {
    Path dir = tmp.resolve("cds");
    if (!Files.isDirectory(dir)) {
      return List.of();
    }
    try (Stream<Path> files = Files.list(dir)) {
      return files.toList();
    }
  }

  @Test
  void theFirstRunRecordsAnArchiveAndTheNextMapsTheAnalyzersClassesFromIt() throws Exception {
    Result first = launch(Map.of(), run(tmp.resolve("first").toString()));
    assertEquals(0, first.exit(), first.err());
    assertFalse(first.out().contains("[cds]"), first.out());
    List<Path> archives = cdsFiles();
    assertEquals(1, archives.size(), archives.toString());
    assertTrue(archives.get(0).getFileName().toString().endsWith(".jsa"), archives.toString());

    Path classes = tmp.resolve("classes.txt");
    Result second =
        launch(
            Map.of(
                "VIGIL_JAVA_OPTS",
                "-Xlog:class+load=info:file=" + classes + " -XX:+PrintFlagsFinal"),
            run(tmp.resolve("second").toString()));
    assertEquals(0, second.exit(), second.err());
    assertTrue(
        second.out().lines().anyMatch(l -> l.matches("\\s*intx TieredStopAtLevel\\s+= 1 .*")),
        "run is compiled by C1 alone");
    long shared;
    try (Stream<String> lines = Files.lines(classes)) {
      shared =
          lines
              .filter(l -> l.contains(" dev.vigil."))
              .filter(l -> l.contains("source: shared objects file (top)"))
              .count();
    }
    assertTrue(shared > 100, "dev.vigil classes mapped from the archive: " + shared);
    assertEquals(1, cdsFiles().size());
    assertEquals(findings("first"), findings("second"));
    assertTrue(
        findings("second").get(1).path("score").asDouble() > 0,
        "the sample's pass finds something");
  }

  private JsonNode findings(String out) throws IOException {
    JsonNode report = MAPPER.readTree(tmp.resolve(out).resolve("report.json").toFile());
    return MAPPER.createArrayNode().add(report.path("detectors")).add(report.path("alarm"));
  }

  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.CsvSource({
    "--limit, 499999, 1",
    "--limit, 500000, 4",
    "--limit=1000000, '', 4",
    "--limit, 99999999999999999999, 4",
    "--limit, lots, 1"
  })
  void aPassToldToUseHalfAMillionEventsOrMoreKeepsTheSecondCompiler(
      String option, String value, int level) throws Exception {
    List<String> args = new java.util.ArrayList<>(List.of(run(tmp.resolve("l").toString())));
    args.add(option);
    if (!value.isEmpty()) {
      args.add(value);
    }
    Result r =
        launch(
            Map.of("VIGIL_CDS", "off", "VIGIL_JAVA_OPTS", "-XX:+PrintFlagsFinal"),
            args.toArray(new String[0]));
    assertTrue(
        r.out()
            .lines()
            .anyMatch(l -> l.matches("\\s*intx TieredStopAtLevel\\s+= " + level + " .*")),
        option + " " + value + ": " + r.err());
  }

  @Test
  void aPassOverAQueueOf64MbOrMoreKeepsTheSecondCompiler() throws Exception {
    Path small = Files.createDirectories(tmp.resolve("small-queue"));
    Files.write(small.resolve("20261127F.cq4"), new byte[1 << 20]);
    Path large = Files.createDirectories(tmp.resolve("large-queue"));
    Files.write(large.resolve("20261127F.cq4"), new byte[64 << 20]);
    // --help: the JVM starts with the level chosen and ends at once, without opening the queue
    assertEquals(1, compilerLevel("run", "--queue", small.toString(), "--help"));
    assertEquals(4, compilerLevel("run", "--queue", large.toString(), "--help"));
    assertEquals(4, compilerLevel("export", "--queue=" + large, "--help"));
  }

  @Test
  void aFilePassThatKeepsTheSecondCompilerInlinesLessAndCollectsInParallelUnlessToldACollector()
      throws Exception {
    String[] large = {"run", "--events", "in.jsonl", "--limit", "500000", "--help"};
    List<String> flags = flagsFinal(Map.of(), large);
    assertTrue(flags.contains("UseParallelGC=true"), flags.toString());
    assertTrue(flags.contains("MaxInlineLevel=6"), flags.toString());
    assertTrue(flags.contains("InlineSmallCode=1000"), flags.toString());
    // a collector the user names is kept: two collectors would stop the JVM
    List<String> serial = flagsFinal(Map.of("VIGIL_JAVA_OPTS", "-XX:+UseSerialGC"), large);
    assertTrue(serial.contains("UseSerialGC=true"), serial.toString());
    assertTrue(serial.contains("UseParallelGC=false"), serial.toString());
    assertTrue(serial.contains("MaxInlineLevel=6"), serial.toString());
    // a pass compiled by C1 alone, and one over a queue, keep the JVM's own choices
    List<String> small = flagsFinal(Map.of(), "run", "--limit", "1000", "--help");
    assertTrue(small.contains("UseParallelGC=false"), small.toString());
    assertTrue(small.contains("MaxInlineLevel=15"), small.toString());
    Path queue = Files.createDirectories(tmp.resolve("large-queue"));
    Files.write(queue.resolve("20261127F.cq4"), new byte[64 << 20]);
    List<String> onQueue = flagsFinal(Map.of(), "run", "--queue", queue.toString(), "--help");
    assertTrue(onQueue.contains("UseParallelGC=false"), onQueue.toString());
    assertTrue(onQueue.contains("MaxInlineLevel=15"), onQueue.toString());
  }

  /**
   * The collector and inlining flags the JVM of a command ends with, as {@code name=value}; the
   * command must exit 0.
   */
  private List<String> flagsFinal(Map<String, String> env, String... args) throws Exception {
    Map<String, String> all = new java.util.HashMap<>(env);
    all.put("VIGIL_CDS", "off");
    all.merge("VIGIL_JAVA_OPTS", "-XX:+PrintFlagsFinal", (a, b) -> a + " " + b);
    Result r = launch(all, args);
    assertEquals(0, r.exit(), r.err());
    return r.out()
        .lines()
        .map(String::trim)
        .filter(l -> l.matches("\\w+ (Use\\w+GC|MaxInlineLevel|InlineSmallCode) += .*"))
        .map(l -> l.replaceAll("\\w+ (\\w+) += (\\S+).*", "$1=$2"))
        .toList();
  }

  /** The highest compiler level the launcher gives the JVM of a command. */
  private int compilerLevel(String... args) throws Exception {
    Result r = launch(Map.of("VIGIL_CDS", "off", "VIGIL_JAVA_OPTS", "-XX:+PrintFlagsFinal"), args);
    return r.out()
        .lines()
        .filter(l -> l.matches("\\s*intx TieredStopAtLevel\\s+= \\d .*"))
        .map(l -> Integer.parseInt(l.replaceAll(".*= (\\d) .*", "$1")))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no TieredStopAtLevel printed: " + r.err()));
  }

  @Test
  void watchAndCdsOffRecordNoArchive() throws Exception {
    Result watch = launch(Map.of(), "watch", "--help");
    assertEquals(0, watch.exit(), watch.err());
    assertTrue(watch.out().contains("watch"), watch.out());
    Result off = launch(Map.of("VIGIL_CDS", "off"), run(tmp.resolve("off").toString()));
    assertEquals(0, off.exit(), off.err());
    assertEquals(List.of(), cdsFiles());
  }

  @Test
  void aMissingJarIsNamedAndExits2() throws Exception {
    Path missing = tmp.resolve("no.jar");
    Result r = launch(Map.of("VIGIL_JAR", missing.toString()), "run", "--events", "x");
    assertEquals(2, r.exit());
    assertTrue(r.err().contains("no analyzer jar at " + missing), r.err());
  }
}
