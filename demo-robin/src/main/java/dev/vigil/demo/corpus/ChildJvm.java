package dev.vigil.demo.corpus;

import java.io.File;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Runs a command (a child JVM under the agent, the analyzer's export) with its output in a log
 * file.
 */
final class ChildJvm {
  private ChildJvm() {}

  /** This JVM's {@code java}. */
  static String java() {
    return Path.of(System.getProperty("java.home"), "bin", "java").toString();
  }

  /** {@code java -javaagent:AGENT=queue.dir=QUEUE -cp CLASSPATH MAIN ARGS...}. */
  static List<String> underAgent(
      Path agentJar, Path queue, List<Path> classpath, String main, String... args) {
    List<String> cmd =
        new ArrayList<>(
            List.of(
                java(),
                "-javaagent:" + agentJar + "=queue.dir=" + queue,
                "-cp",
                String.join(File.pathSeparator, classpath.stream().map(Path::toString).toList()),
                main));
    cmd.addAll(List.of(args));
    return cmd;
  }

  /**
   * Runs the command in {@code dir} with {@code env} added, its output into {@code log}.
   *
   * @throws IllegalStateException when it does not end in time or exits with another code than 0
   */
  static void run(List<String> cmd, Map<String, String> env, Path dir, Path log, int timeoutSec)
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
          String.join(" ", cmd) + " did not finish in " + timeoutSec + " s; see " + log);
    }
    if (p.exitValue() != 0) {
      throw new IllegalStateException(
          String.join(" ", cmd) + " exited with " + p.exitValue() + "; see " + log);
    }
  }
}
