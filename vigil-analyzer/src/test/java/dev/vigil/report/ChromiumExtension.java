package dev.vigil.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Hands a test a running {@link Chromium}, one per test class, closed after it. When {@code
 * /usr/bin/chromium} is missing it installs Debian's {@code chromium} with apt-get if the tests run
 * as root, and otherwise fails with the command to run, so that {@code ./mvnw -B verify} works on a
 * fresh machine.
 */
public final class ChromiumExtension implements ParameterResolver {
  /** What a user who is not root runs. */
  static final String INSTALL = "apt-get update && apt-get install -y chromium";

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    return parameter.getParameter().getType() == Chromium.class;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    ExtensionContext classContext =
        context
            .getParent()
            .filter(c -> c.getTestClass().isPresent() && c.getTestMethod().isEmpty())
            .orElse(context);
    return classContext
        .getStore(ExtensionContext.Namespace.create(ChromiumExtension.class))
        .computeIfAbsent("chromium", k -> Running.start(), Running.class)
        .chromium();
  }

  /** A browser and its profile directory, both gone when the class's tests are done. */
  private record Running(Chromium chromium, Path profileRoot) implements AutoCloseable {
    static Running start() {
      try {
        ensureInstalled();
        Path root = Files.createTempDirectory("vigil-chromium");
        return new Running(Chromium.start(root.resolve("profile")), root);
      } catch (IOException e) {
        throw new IllegalStateException("Chromium could not be started: " + e, e);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while starting Chromium", e);
      }
    }

    @Override
    public void close() throws IOException {
      chromium.close();
      for (int attempt = 1; ; attempt++) {
        try (Stream<Path> s = Files.walk(profileRoot)) {
          s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
          return;
        } catch (IOException | java.io.UncheckedIOException e) {
          if (attempt
              == 3) { // a file Chromium wrote while it went: a leftover temporary directory, no
            // test failure
            System.err.println("ChromiumExtension: could not remove " + profileRoot + ": " + e);
            return;
          }
        }
      }
    }
  }

  /**
   * Installs Debian's chromium when it is missing and the tests run as root; fails naming the
   * command otherwise.
   */
  static synchronized void ensureInstalled() throws IOException, InterruptedException {
    if (Files.isExecutable(Chromium.BINARY)) {
      return;
    }
    if (!isRoot()) {
      throw new IllegalStateException(
          "the browser tests need Debian's chromium and "
              + Chromium.BINARY
              + " is missing; install it as root: "
              + INSTALL);
    }
    Path log = Files.createTempFile("vigil-chromium-install", ".log");
    ProcessBuilder pb =
        new ProcessBuilder("sh", "-c", INSTALL)
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    pb.environment().put("DEBIAN_FRONTEND", "noninteractive");
    Process p = pb.start();
    if (!p.waitFor(20, TimeUnit.MINUTES)) {
      p.destroyForcibly();
      throw new IllegalStateException(INSTALL + " did not finish within 20 minutes; see " + log);
    }
    if (p.exitValue() != 0 || !Files.isExecutable(Chromium.BINARY)) {
      throw new IllegalStateException(INSTALL + " failed (exit " + p.exitValue() + "); see " + log);
    }
    Files.delete(log);
  }

  private static boolean isRoot() throws IOException, InterruptedException {
    Process p = new ProcessBuilder("id", "-u").redirectErrorStream(true).start();
    String uid = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
    p.waitFor();
    return uid.equals("0");
  }
}
