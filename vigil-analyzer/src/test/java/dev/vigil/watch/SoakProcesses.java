package dev.vigil.watch;

import dev.vigil.it.ChildJvm;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The soak's child processes: agent processes ({@code SteadyCallsApp} under the real {@code
 * -javaagent:vigil.jar}) and the packaged {@code watch}, each with its output in files, killed with
 * SIGKILL ({@link Process#destroyForcibly()} on Linux) or ended cleanly; and what {@code jcmd} and
 * {@code /proc} tell of a process.
 */
final class SoakProcesses {
  private static final Path JAR =
      Path.of(System.getProperty("vigil.analyzer.jar", "target/vigil-analyzer.jar"));
  private static final Pattern CALLS = Pattern.compile("^calls (\\d+)$", Pattern.MULTILINE);
  private static final Pattern USED = Pattern.compile("used (\\d+)K");

  private SoakProcesses() {}

  /** A child process with its stdout and stderr in files. */
  abstract static class Child {
    final String name;
    final Process process;
    final Path stdout;
    final Path stderr;

    Child(String name, List<String> command, Path dir) throws IOException {
      this.name = name;
      this.stdout = dir.resolve(name + ".out");
      this.stderr = dir.resolve(name + ".err");
      this.process =
          new ProcessBuilder(command)
              .redirectOutput(stdout.toFile())
              .redirectError(stderr.toFile())
              .start();
    }

    long pid() {
      return process.pid();
    }

    String stdout() throws IOException {
      return Files.readString(stdout);
    }

    String stderr() throws IOException {
      return Files.readString(stderr);
    }

    /**
     * SIGKILL; returns null, or why the process had already ended on its own (its exit code and the
     * end of its stderr).
     */
    String kill() throws Exception {
      String ended = process.isAlive() ? null : endedOnItsOwn();
      process.destroyForcibly();
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        throw new AssertionError(name + " outlived SIGKILL by 30 s");
      }
      return ended;
    }

    /** How it ended: its exit code and the end of its stderr ("still running" while it runs). */
    String endedOnItsOwn() {
      if (process.isAlive()) {
        return name + " (pid " + pid() + ") is still running";
      }
      String err;
      try {
        err = stderr();
      } catch (IOException e) {
        err = "(stderr unreadable: " + e + ")";
      }
      return name
          + " (pid "
          + pid()
          + ") ended on its own with exit "
          + process.exitValue()
          + ": "
          + err.substring(Math.max(0, err.length() - 2000));
    }
  }

  /** {@code SteadyCallsApp} under {@code -javaagent:vigil.jar}, writing to {@code queue}. */
  static final class Agent extends Child {
    private final OutputStream stdin;

    Agent(String name, Path queue, String agentName, double perSecond, Path dir)
        throws IOException {
      super(
          name,
          List.of(
              ChildJvm.java(),
              "-Xshare:auto",
              "-Xmx128m",
              "-javaagent:" + ChildJvm.agentJar().toAbsolutePath(),
              "-Dvigil.queue.dir=" + queue,
              "-Dvigil.agent.name=" + agentName,
              "-cp",
              ChildJvm.applicationClassPath(),
              "dev.vigil.it.apps.SteadyCallsApp",
              String.valueOf(perSecond),
              String.valueOf(SoakSettings.FAIL_EVERY)),
          dir);
      this.stdin = process.getOutputStream();
    }

    /** The calls it said it made, the last time it said so (-1 before it did). */
    long calls() throws IOException {
      Matcher m = CALLS.matcher(stdout());
      long last = -1;
      while (m.find()) {
        last = Long.parseLong(m.group(1));
      }
      return last;
    }

    /**
     * Ends the input, which stops the calls, and waits for the process to exit (its agent flushes
     * what it holds); returns the calls made.
     */
    long endCleanly() throws Exception {
      stdin.close();
      if (!process.waitFor(60, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError(name + " did not end within 60 s of the end of its input");
      }
      if (process.exitValue() != 0 || !stdout().contains("ended")) {
        throw new AssertionError(endedOnItsOwn());
      }
      return calls();
    }
  }

  /** {@code java -jar vigil-analyzer.jar watch ...}. */
  static final class Watch extends Child {
    Watch(String name, String xmx, Path dir, List<String> args) throws IOException {
      super(name, command(xmx, args), dir);
    }

    private static List<String> command(String xmx, List<String> args) {
      List<String> cmd =
          new ArrayList<>(List.of(ChildJvm.java(), "-Xmx" + xmx, "-jar", JAR.toString(), "watch"));
      cmd.addAll(args);
      return cmd;
    }

    List<String> passLines() throws IOException {
      return stdout().lines().filter(l -> l.contains(" pass trigger=")).toList();
    }

    /** Sends SIGTERM and returns the exit code. */
    int sigterm() throws InterruptedException {
      process.destroy();
      if (!process.waitFor(120, TimeUnit.SECONDS)) {
        process.destroyForcibly();
        throw new AssertionError(name + " did not stop within 120 s of SIGTERM");
      }
      return process.exitValue();
    }
  }

  /**
   * The heap in use after a full GC, in KiB: {@code jcmd GC.class_histogram} (which collects in
   * full first; its histogram is written to {@code histogram}), then {@code GC.heap_info}.
   */
  static long heapAfterFullGcKib(long pid, Path histogram) throws Exception {
    Files.writeString(histogram, jcmd(pid, "GC.class_histogram"));
    String info = jcmd(pid, "GC.heap_info");
    Matcher m = USED.matcher(info);
    if (!m.find()) {
      throw new AssertionError("no 'used' figure in jcmd GC.heap_info: " + info);
    }
    return Long.parseLong(m.group(1));
  }

  /** The process's open file descriptors ({@code /proc/<pid>/fd}). */
  static long openFds(long pid) throws IOException {
    try (Stream<Path> fds = Files.list(Path.of("/proc", String.valueOf(pid), "fd"))) {
      return fds.count();
    }
  }

  private static String jcmd(long pid, String command) throws Exception {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Process p =
        new ProcessBuilder(jcmd.toString(), String.valueOf(pid), command)
            .redirectErrorStream(true)
            .start();
    String out =
        new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new AssertionError("jcmd " + pid + " " + command + " failed: " + out);
    }
    return out;
  }

  /** Runs the packaged analyzer to the end; returns its exit code. */
  static int analyzer(Path dir, String name, List<String> args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(ChildJvm.java(), "-Xmx2g", "-jar", JAR.toString()));
    cmd.addAll(args);
    Process p =
        new ProcessBuilder(cmd)
            .redirectOutput(dir.resolve(name + ".out").toFile())
            .redirectError(dir.resolve(name + ".err").toFile())
            .start();
    if (!p.waitFor(30, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new AssertionError("analyzer " + args.get(0) + " did not finish");
    }
    return p.exitValue();
  }
}
