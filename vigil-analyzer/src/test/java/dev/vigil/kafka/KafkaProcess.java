package dev.vigil.kafka;

import static org.awaitility.Awaitility.await;

import dev.vigil.it.ChildJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code java -jar vigil-analyzer.jar COMMAND ...} as a child JVM, its output in files: what a user
 * runs.
 */
final class KafkaProcess implements AutoCloseable {
  static final Duration PATIENCE = Duration.ofSeconds(60);
  private static final Path JAR =
      Path.of(System.getProperty("vigil.analyzer.jar", "target/vigil-analyzer.jar"));

  private final Process process;
  private final Path stdout;
  private final Path stderr;

  private KafkaProcess(Path tmp, String name, List<String> args) throws IOException {
    stdout = tmp.resolve(name + ".out");
    stderr = tmp.resolve(name + ".err");
    List<String> cmd =
        new ArrayList<>(
            List.of(
                ChildJvm.java(), "-Xmx256m", "-XX:TieredStopAtLevel=1", "-jar", JAR.toString()));
    cmd.addAll(args);
    process =
        new ProcessBuilder(cmd)
            .redirectOutput(stdout.toFile())
            .redirectError(stderr.toFile())
            .start();
  }

  /**
   * Starts the command and waits for its start line ({@code " <command> started: "}) or its end.
   */
  static KafkaProcess start(Path tmp, String name, String command, String... args)
      throws IOException {
    List<String> all = new ArrayList<>(List.of(command));
    all.addAll(List.of(args));
    KafkaProcess p = new KafkaProcess(tmp, name, all);
    await()
        .atMost(PATIENCE)
        .until(() -> p.stdout().contains(" " + command + " started: ") || !p.isAlive());
    return p;
  }

  /**
   * {@code watch} as a member of consumer group {@code group} on {@code topic}, with a window wide
   * enough for every test event and its outputs in {@code tmp/name}; {@code more} options after.
   */
  static KafkaProcess groupWatch(
      Path tmp, String name, String bootstrap, String topic, String group, String... more)
      throws IOException {
    List<String> args =
        new ArrayList<>(
            List.of(
                "--bootstrap",
                bootstrap,
                "--topic",
                topic,
                "--group",
                group,
                "--out",
                tmp.resolve(name).toString(),
                "--window-hours",
                "100000"));
    args.addAll(List.of(more));
    return start(tmp, name, "watch", args.toArray(String[]::new));
  }

  String stdout() throws IOException {
    return Files.exists(stdout) ? Files.readString(stdout) : "";
  }

  String stderr() throws IOException {
    return Files.exists(stderr) ? Files.readString(stderr) : "";
  }

  boolean isAlive() {
    return process.isAlive();
  }

  /** Sends SIGTERM and returns the exit code. */
  int sigterm() throws InterruptedException {
    process.destroy();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("the process did not stop within 60 s of SIGTERM");
    }
    return process.exitValue();
  }

  /** SIGKILL: the process ends at once, committing nothing. */
  void sigkill() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(60, TimeUnit.SECONDS);
  }

  /** Kills the process if it still runs; an interrupt stops the wait, and stays set. */
  @Override
  public void close() {
    if (process.isAlive()) {
      process.destroyForcibly();
      try {
        process.waitFor(60, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
