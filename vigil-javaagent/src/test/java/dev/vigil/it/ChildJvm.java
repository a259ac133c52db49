package dev.vigil.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.observe.Event;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.SpillImport;
import dev.vigil.observe.TailerEvents;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Runs a test application in a child JVM, with or without {@code -javaagent:vigil.jar}, and reads
 * its queue.
 */
public final class ChildJvm {
  /** What a child printed and how it ended. */
  public record Run(int exit, String stdout, String stderr) {
    public List<String> stderrLines() {
      return stderr.isEmpty() ? List.of() : List.of(stderr.split("\\R"));
    }

    public List<String> vigilLines() {
      return stderrLines().stream().filter(l -> l.startsWith("[vigil]")).toList();
    }
  }

  /** Vigil's own jars and libraries, which an application's class path never has. */
  private static final List<String> NOT_THE_APPLICATIONS =
      List.of(
          "vigil-event",
          "vigil-javaagent",
          "chronicle-",
          "posix-",
          "affinity-",
          "compiler-",
          "slf4j-nop",
          "byte-buddy",
          "annotations-24");

  public static Path agentJar() {
    Path jar = Path.of(System.getProperty("vigil.agent.jar", "target/vigil.jar"));
    assertTrue(Files.isRegularFile(jar), "the agent jar " + jar + " is built at package");
    return jar;
  }

  /**
   * The test application's class path: test classes and the frameworks, without Vigil's own
   * libraries.
   */
  public static String applicationClassPath() {
    String full =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    return Arrays.stream(full.split(File.pathSeparator))
        .filter(e -> !e.isBlank())
        .filter(
            e ->
                NOT_THE_APPLICATIONS.stream()
                    .noneMatch(n -> Path.of(e).getFileName().toString().startsWith(n)))
        .filter(e -> !e.replace('\\', '/').endsWith("vigil-javaagent/target/classes"))
        .collect(Collectors.joining(File.pathSeparator));
  }

  /** The default JVM's {@code java}. */
  public static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /**
   * A JDK 25 {@code java}, or null: {@code VIGIL_IT_JDK25} (a JDK home), else one under
   * /usr/lib/jvm.
   */
  public static String java25() {
    String home = System.getenv("VIGIL_IT_JDK25");
    List<Path> candidates = new ArrayList<>();
    if (home != null) {
      candidates.add(Path.of(home));
    }
    Path jvms = Path.of("/usr/lib/jvm");
    if (Files.isDirectory(jvms)) {
      try (Stream<Path> s = Files.list(jvms)) {
        s.filter(p -> p.getFileName().toString().contains("25")).sorted().forEach(candidates::add);
      } catch (IOException e) {
        // none
      }
    }
    for (Path c : candidates) {
      Path java = c.resolve("bin").resolve("java");
      if (Files.isExecutable(java)) {
        return java.toString();
      }
    }
    return null;
  }

  public static Run run(
      String java, String agentArgs, String classPath, String mainClass, String... args)
      throws IOException, InterruptedException {
    return run(java, agentArgs, List.of(), classPath, mainClass, args);
  }

  /**
   * Runs {@code mainClass}; with the agent when {@code agentArgs} is not null ("" for no agent
   * argument).
   */
  public static Run run(
      String java,
      String agentArgs,
      List<String> jvmOptions,
      String classPath,
      String mainClass,
      String... args)
      throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(java);
    cmd.add("-Xshare:auto");
    if (agentArgs != null) {
      cmd.add(
          "-javaagent:"
              + agentJar().toAbsolutePath()
              + (agentArgs.isEmpty() ? "" : "=" + agentArgs));
    }
    cmd.addAll(jvmOptions);
    cmd.add("-cp");
    cmd.add(classPath);
    cmd.add(mainClass);
    cmd.addAll(List.of(args));
    Path out = Files.createTempFile("vigil-it", ".out");
    Path err = Files.createTempFile("vigil-it", ".err");
    try {
      Process p =
          new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
      if (!p.waitFor(5, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new AssertionError("child JVM did not finish: " + cmd);
      }
      return new Run(
          p.exitValue(),
          Files.readString(out, StandardCharsets.UTF_8),
          Files.readString(err, StandardCharsets.UTF_8));
    } finally {
      Files.deleteIfExists(out);
      Files.deleteIfExists(err);
    }
  }

  /**
   * Every event in a queue directory, in queue order, after importing its spill files as the
   * analyzer's readers do.
   */
  public static List<Event> readQueue(Path dir) throws EventFormatException {
    SpillImport.importPending(dir);
    return TailerEvents.all(dir);
  }

  private ChildJvm() {}
}
