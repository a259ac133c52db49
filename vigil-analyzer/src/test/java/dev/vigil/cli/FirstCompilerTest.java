package dev.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link FirstCompiler}: which commands it keeps from the second compiler, and that the JVM takes
 * its directive.
 */
class FirstCompilerTest {
  private static final List<String> NO_FLAGS = List.of("-Xmx512m", "-Dfile.encoding=UTF-8");

  /** Input files and their sizes; any other file cannot be read. */
  private static final Map<String, Long> FILES =
      Map.of(
          "e.jsonl",
          30_000_000L,
          "spans.json",
          1_000L,
          "just-under.jsonl",
          FirstCompiler.LARGE_FILE_BYTES - 1,
          "large.jsonl",
          FirstCompiler.LARGE_FILE_BYTES,
          "q",
          80L << 20, // a queue of one day's file, its first block
          "large-q",
          144L << 20);

  private static long size(Path file) throws IOException {
    Long bytes = FILES.get(file.toString());
    if (bytes == null) {
      throw new NoSuchFileException(file.toString());
    }
    return bytes;
  }

  private static boolean suits(String... args) {
    return FirstCompiler.suits(args, NO_FLAGS, FirstCompilerTest::size);
  }

  @Test
  void aRunOverJsonlUnderHalfAMillionEventsIsForTheFirstCompilerAlone() {
    assertTrue(suits("run", "--events", "e.jsonl"), "the default limit, 500");
    assertTrue(suits("run", "--events", "e.jsonl", "--limit", "499999"));
    assertTrue(suits("run", "--limit=100000", "--events", "-"));
    assertTrue(suits("run", "--otlp", "spans.json", "--limit", " 20 "));
    assertTrue(suits("run", "--events=just-under.jsonl", "--limit", "1000"));
  }

  @Test
  void aRunOverASmallQueueUnderHalfAMillionEventsIsForTheFirstCompilerAlone() {
    assertTrue(suits("run", "--queue", "q"), "the default limit, 500");
    assertTrue(suits("run", "--queue=q", "--limit", "100000"));
    assertFalse(suits("run", "--queue", "q", "--limit", "500000"));
    assertFalse(suits("run", "--queue", "large-q", "--limit", "1000"), "its reading pays C2 back");
    assertFalse(suits("run", "--queue", "missing-q"), "refused by the command");
    assertFalse(suits("run", "--queue"), "refused by the command");
  }

  @Test
  void aQueuesSizeIsItsChronicleFilesSizes(@TempDir Path dir) throws IOException {
    try (RandomAccessFile day = new RandomAccessFile(dir.resolve("20261202F.cq4").toFile(), "rw")) {
      day.setLength(80L << 20); // sparse, as Chronicle's files are
    }
    Files.writeString(dir.resolve("metadata.cq4t"), "x".repeat(1000));
    Files.createDirectory(dir.resolve("spill"));
    Files.writeString(dir.resolve("spill").resolve("1-2-3.spill"), "y".repeat(1000));
    assertEquals(80L << 20, FirstCompiler.inputBytes(dir));
    Path jsonl = Files.writeString(dir.resolve("e.jsonl"), "{}\n");
    assertEquals(3, FirstCompiler.inputBytes(jsonl));
    assertThrows(IOException.class, () -> FirstCompiler.inputBytes(dir.resolve("missing")));
  }

  @Test
  void otherCommandsLargerPassesAndTheJvmsOwnChoiceKeepTheSecondCompiler() {
    assertFalse(suits());
    assertFalse(suits("watch", "--queue", "q"));
    assertFalse(suits("export", "--queue", "q"));
    assertFalse(suits("eval", "--events", "e.jsonl"));
    assertFalse(suits("--help"));
    assertFalse(suits("run", "--events", "e.jsonl", "--limit", "500000"));
    assertFalse(suits("run", "--events", "e.jsonl", "--limit=1000000"));
    assertFalse(suits("run", "--events", "e.jsonl", "--limit", "many"), "refused by the command");
    assertFalse(suits("run", "--events", "large.jsonl"), "its first reading pays C2 back");
    assertFalse(suits("run", "--events=large.jsonl", "--limit", "100"));
    assertFalse(suits("run", "--events", "missing.jsonl"), "refused by the command");
    for (String flag :
        List.of(
            "-XX:TieredStopAtLevel=4",
            "-XX:TieredStopAtLevel=1",
            "-XX:-TieredCompilation",
            "-XX:CompilerDirectivesFile=d.json",
            "-Xint",
            "-Xcomp")) {
      assertFalse(
          FirstCompiler.suits(
              new String[] {"run", "--events", "e.jsonl"},
              List.of("-Xmx1g", flag),
              FirstCompilerTest::size),
          flag);
    }
  }

  /** Methods nothing calls: the directive for them changes nothing else in this JVM. */
  static final class Probe {
    private Probe() {}

    static int unused(int x) {
      return x + 1;
    }
  }

  @Test
  void theJvmTakesTheDirectiveThatKeepsMethodsFromTheSecondCompiler() throws Exception {
    String pattern = Probe.class.getName() + "::*";
    assertEquals(
        "1 compiler directives added", FirstCompiler.keepFromSecondCompiler(pattern).strip());
    try {
      String directives = FirstCompiler.diagnosticCommand("compilerDirectivesPrint");
      String probe = "matching: " + Probe.class.getName().replace('.', '/') + ".*";
      int at = directives.indexOf(probe);
      assertTrue(at >= 0, directives);
      int c2 = directives.indexOf("c2 directives:", at);
      int next = directives.indexOf("Directive:", at);
      assertTrue(c2 > at && (next < 0 || c2 < next), directives);
      assertTrue(directives.substring(c2).contains("Exclude:true"), directives);
      assertFalse(
          directives.substring(at, c2).contains("Exclude:true"),
          "the first compiler still compiles");
    } finally {
      FirstCompiler.diagnosticCommand("compilerDirectivesRemove"); // the newest only
    }
  }

  @Test
  void theJdksBeanOfTheDiagnosticCommandsIsTakenWithoutTheBeanServerWhereItIsOpened() {
    // this JVM opens its package as the jar's manifest opens it to java -jar (the module's pom)
    assertNotNull(FirstCompiler.commandsWithoutServer(FirstCompiler.COMMANDS_CLASS));
  }

  @Test
  void aJdkWithoutThatBeanLeavesTheCommandsToTheBeanServer() throws Exception {
    assertNull(FirstCompiler.commandsWithoutServer("com.sun.management.internal.NoSuchBean"));
    assertNull(FirstCompiler.commandsWithoutServer(String.class.getName()), "not the bean");
    // the way taken then answers as the JDK's bean does
    String viaServer = FirstCompiler.diagnosticCommandThrough(null, "compilerDirectivesPrint");
    String direct =
        FirstCompiler.diagnosticCommandThrough(
            FirstCompiler.commandsWithoutServer(FirstCompiler.COMMANDS_CLASS),
            "compilerDirectivesPrint");
    assertTrue(viaServer.contains("Directive:"), viaServer);
    assertEquals(direct, viaServer);
  }
}
