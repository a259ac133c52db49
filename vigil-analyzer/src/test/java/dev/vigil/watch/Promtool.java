package dev.vigil.watch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Prometheus's own {@code promtool}, whose {@code check metrics} parses a scrape with Prometheus's
 * text-format parser and lints it. Taken from the PATH, else from Debian's {@code prometheus}
 * package unpacked (not installed: nothing starts) under {@code target/promtool}; fetching the
 * package needs apt's lists, which are updated first when the tests run as root.
 */
final class Promtool {
  private static final Path UNPACKED = Path.of("target/promtool");
  private static final Path BINARY = UNPACKED.resolve("usr/bin/promtool");
  static final String FETCH =
      "cd target/promtool && apt-get download prometheus && dpkg-deb -x prometheus_*.deb .";

  private Promtool() {}

  /** What {@code promtool check metrics} said of a scrape. */
  record Check(int exit, String output) {}

  /** Checks {@code scrape} with {@code promtool check metrics}. */
  static Check checkMetrics(String scrape) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(binary(), "check", "metrics").redirectErrorStream(true).start();
    p.getOutputStream().write(scrape.getBytes(StandardCharsets.UTF_8));
    p.getOutputStream().close();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      throw new IllegalStateException("promtool check metrics did not finish within 60 s");
    }
    return new Check(p.exitValue(), output);
  }

  private static synchronized String binary() throws IOException, InterruptedException {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "promtool"))) {
        return Path.of(dir, "promtool").toString();
      }
    }
    if (Files.isExecutable(BINARY)) {
      return BINARY.toString();
    }
    Files.createDirectories(UNPACKED);
    if (sh(FETCH) != 0) {
      if (!isRoot() || sh("apt-get update") != 0 || sh(FETCH) != 0) {
        throw new IllegalStateException(
            "the metrics tests need Prometheus's promtool; fetch it with: " + FETCH);
      }
    }
    return BINARY.toString();
  }

  private static int sh(String command) throws IOException, InterruptedException {
    Path log = Files.createTempFile("vigil-promtool", ".log");
    Process p =
        new ProcessBuilder("sh", "-c", command)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    if (!p.waitFor(10, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      return -1;
    }
    Files.delete(log);
    return p.exitValue();
  }

  private static boolean isRoot() throws IOException, InterruptedException {
    Process p = new ProcessBuilder("id", "-u").redirectErrorStream(true).start();
    String uid = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    p.waitFor();
    return uid.equals("0");
  }
}
