package dev.vigil.adapt.code;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/** Runs the {@code git} executable, bounded in time, with its output read as text. */
final class Git {
  /** What a git command did. {@code exitCode} is -1 when it did not finish in time. */
  record Result(int exitCode, String output) {
    boolean ok() {
      return exitCode == 0;
    }
  }

  private final String executable;
  private final Duration timeout;

  Git(String executable, Duration timeout) {
    this.executable = executable;
    this.timeout = timeout;
  }

  /** True when {@code git --version} runs. */
  boolean available() {
    try {
      return run(Path.of("").toAbsolutePath(), Map.of(), "--version").ok();
    } catch (IOException e) {
      return false;
    }
  }

  /**
   * Runs git in {@code dir} with extra environment variables; stdout and stderr are merged.
   *
   * @throws IOException when the executable cannot be started
   */
  Result run(Path dir, Map<String, String> env, String... args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(executable);
    command.addAll(List.of(args));
    ProcessBuilder pb =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
    pb.environment().putAll(env);
    pb.environment().put("GIT_TERMINAL_PROMPT", "0");
    pb.environment().put("LC_ALL", "C");
    Process p = pb.start();
    p.getOutputStream().close();
    StringBuilder out = new StringBuilder();
    Thread reader =
        new Thread(
            () -> {
              try (InputStream in = p.getInputStream()) {
                out.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
              } catch (IOException e) {
                out.append("(output unreadable: ").append(e.getMessage()).append(')');
              }
            },
            "vigil-git-output");
    reader.setDaemon(true);
    reader.start();
    try {
      if (!p.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        p.destroyForcibly();
        return new Result(
            -1,
            "git "
                + String.join(" ", args)
                + " did not finish within "
                + ReceiptGate.human(timeout));
      }
      reader.join(timeout.toMillis());
    } catch (InterruptedException e) {
      p.destroyForcibly();
      Thread.currentThread().interrupt();
      return new Result(-1, "interrupted while running git " + String.join(" ", args));
    }
    return new Result(p.exitValue(), out.toString().trim());
  }

  String executable() {
    return executable;
  }
}
