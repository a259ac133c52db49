package dev.vigil.watch;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.emobank.EmoBank;
import dev.vigil.it.ChildJvm;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The processes of the watch ITs: an agent under the real javaagent, driven from stdin, and the
 * packaged watch.
 */
final class LiveProcesses {
  static final Duration PATIENCE = Duration.ofSeconds(90);
  private static final Path JAR =
      Path.of(System.getProperty("vigil.analyzer.jar", "target/vigil-analyzer.jar"));
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private LiveProcesses() {}

  /**
   * {@code ToolCallsApp} under {@code -javaagent:vigil.jar}, writing to a queue as agent {@code
   * name}.
   */
  static final class Agent implements AutoCloseable {
    private final Process process;
    private final OutputStream stdin;
    private final Path stdout;
    private int sent;

    Agent(Path queue, String name, Path tmp) throws IOException {
      stdout = tmp.resolve("agent-" + name + ".out");
      process =
          new ProcessBuilder(
                  ChildJvm.java(),
                  "-Xshare:auto",
                  "-javaagent:" + ChildJvm.agentJar().toAbsolutePath(),
                  "-Dvigil.queue.dir=" + queue,
                  "-Dvigil.agent.name=" + name,
                  "-cp",
                  ChildJvm.applicationClassPath(),
                  "dev.vigil.it.apps.ToolCallsApp")
              .redirectOutput(stdout.toFile())
              .redirectError(tmp.resolve("agent-" + name + ".err").toFile())
              .start();
      stdin = process.getOutputStream();
    }

    /** {@code ok N} or {@code fail N}; returns when the calls are made (and so appended). */
    void call(String status, int n) throws IOException {
      sent += n;
      stdin.write((status + " " + n + "\n").getBytes(StandardCharsets.UTF_8));
      stdin.flush();
      String done = "done " + sent;
      await().atMost(PATIENCE).until(() -> Files.readString(stdout).lines().anyMatch(done::equals));
    }

    /** Ends the agent's input and waits for it; an interrupt kills it at once, and stays set. */
    @Override
    public void close() throws IOException {
      stdin.close();
      try {
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
          process.destroyForcibly();
        }
      } catch (InterruptedException e) {
        process.destroyForcibly();
        Thread.currentThread().interrupt();
      }
    }
  }

  /** {@code java -jar vigil-analyzer.jar watch ...} with its output in files. */
  static final class Watch implements AutoCloseable {
    private final Process process;
    private final Path stdout;
    private final Path stderr;

    Watch(Path tmp, String name, String... args) throws IOException {
      stdout = tmp.resolve("watch-" + name + ".out");
      stderr = tmp.resolve("watch-" + name + ".err");
      List<String> cmd = new ArrayList<>(List.of(ChildJvm.java(), "-jar", JAR.toString(), "watch"));
      cmd.addAll(List.of(args));
      process =
          new ProcessBuilder(cmd)
              .redirectOutput(stdout.toFile())
              .redirectError(stderr.toFile())
              .start();
      await()
          .atMost(PATIENCE)
          .until(
              () ->
                  stdout().contains(" watch started: ")
                      || stdout().contains(" watch waiting: ")
                      || !process.isAlive());
    }

    String stdout() throws IOException {
      return Files.readString(stdout);
    }

    String stderr() throws IOException {
      return Files.readString(stderr);
    }

    /** The pass lines printed so far. */
    List<String> passLines() throws IOException {
      return stdout().lines().filter(l -> l.contains(" pass trigger=")).toList();
    }

    /** Sends SIGTERM and returns the exit code. */
    int sigterm() throws InterruptedException {
      process.destroy();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        throw notStopped("SIGTERM");
      }
      return process.exitValue();
    }

    /**
     * Sends SIGINT (what Ctrl-C sends) and returns the exit code. Where this JVM was started with
     * SIGINT ignored (a background job of a non-interactive shell, {@code cmd &} in a script), the
     * watch inherited that and the JVM never sees SIGINT: there it is sent SIGTERM, which the watch
     * handles the same way ({@code StopSignals}).
     */
    int sigint() throws Exception {
      if (sigintIgnoredHere()) {
        return sigterm();
      }
      Process kill =
          new ProcessBuilder("kill", "-INT", String.valueOf(process.pid())).inheritIO().start();
      if (!kill.waitFor(30, TimeUnit.SECONDS) || kill.exitValue() != 0) {
        throw new AssertionError("kill -INT " + process.pid() + " failed");
      }
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        throw notStopped("SIGINT");
      }
      return process.exitValue();
    }

    /** Whether this process ignores SIGINT, as its children then do (Linux; false elsewhere). */
    private static boolean sigintIgnoredHere() throws IOException {
      Path status = Path.of("/proc/self/status");
      if (!Files.isReadable(status)) {
        return false;
      }
      for (String line : Files.readAllLines(status)) {
        if (line.startsWith("SigIgn:")) {
          long ignored = Long.parseLong(line.substring("SigIgn:".length()).trim(), 16);
          return (ignored & (1L << (2 - 1))) != 0; // SIGINT is signal 2
        }
      }
      return false;
    }

    boolean isAlive() {
      return process.isAlive();
    }

    /**
     * The failure of a watch still running 60 s after {@code signal}, killed, with what it printed
     * and its threads as {@code jcmd} saw them before it was killed, so that a hang says where.
     */
    private AssertionError notStopped(String signal) {
      String threads;
      try {
        Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
        Path out = stdout.resolveSibling(stdout.getFileName() + ".threads");
        Process dump =
            new ProcessBuilder(jcmd.toString(), String.valueOf(process.pid()), "Thread.print")
                .redirectErrorStream(true)
                .redirectOutput(out.toFile())
                .start();
        dump.waitFor(30, TimeUnit.SECONDS);
        threads = Files.readString(out, StandardCharsets.UTF_8);
      } catch (IOException e) {
        threads = "(no thread dump: " + e + ")";
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        threads = "(no thread dump: interrupted)";
      }
      process.destroyForcibly();
      String printed;
      try {
        printed = "stdout:\n" + stdout() + "\nstderr:\n" + stderr();
      } catch (IOException e) {
        printed = "(output unreadable: " + e + ")";
      }
      return new AssertionError(
          "watch did not stop within 60 s of "
              + signal
              + "\n"
              + printed
              + "\nthreads:\n"
              + threads);
    }

    /** Kills the watch if it still runs; an interrupt stops the wait, and stays set. */
    @Override
    public void close() {
      if (process.isAlive()) {
        process.destroyForcibly();
        try {
          process.waitFor(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
  }

  /** Events deposited into a bank, as its last commit records them (0 before the first). */
  static long depositedIn(Path bank) {
    Path cp = bank.resolve(EmoBank.CHECKPOINT);
    if (!Files.exists(cp)) {
      return 0;
    }
    try {
      return MAPPER.readTree(cp.toFile()).path("events_deposited").asLong();
    } catch (IOException e) {
      return -1; // replaced while read
    }
  }

  static JsonNode json(Path file) throws IOException {
    return MAPPER.readTree(file.toFile());
  }

  /** Runs the packaged analyzer to the end. */
  static int analyzer(Path tmp, String name, String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(ChildJvm.java(), "-jar", JAR.toString()));
    cmd.addAll(List.of(args));
    Process p =
        new ProcessBuilder(cmd)
            .redirectOutput(tmp.resolve(name + ".out").toFile())
            .redirectError(tmp.resolve(name + ".err").toFile())
            .start();
    if (!p.waitFor(120, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new AssertionError("analyzer " + args[0] + " did not finish");
    }
    return p.exitValue();
  }
}
