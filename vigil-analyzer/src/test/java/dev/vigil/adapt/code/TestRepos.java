package dev.vigil.adapt.code;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/**
 * The test repositories under {@code src/test/resources/repos}, and what the tests do with them.
 */
final class TestRepos {
  private TestRepos() {}

  /** Copies test repository {@code name} into {@code dir}; returns the copy's root. */
  static Path copy(String name, Path dir) throws IOException {
    Path source = resource("repos/" + name);
    Path target = dir.resolve(name);
    copyTree(source, target);
    return target;
  }

  static Path resource(String name) {
    URL url = TestRepos.class.getClassLoader().getResource(name);
    assertNotNull(url, "test resource " + name + " is missing");
    try {
      return Path.of(url.toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  static String text(String resource) throws IOException {
    return Files.readString(resource(resource), StandardCharsets.UTF_8);
  }

  static void copyTree(Path source, Path target) throws IOException {
    try (Stream<Path> walk = Files.walk(source)) {
      for (Path p : walk.toList()) {
        Path t = target.resolve(source.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(t);
        } else {
          Files.createDirectories(t.getParent());
          Files.copy(p, t);
        }
      }
    }
  }

  /**
   * Writes files ({@code path, content, path, content…}) under {@code root}; returns {@code root}.
   */
  static Path write(Path root, String... pathsAndContents) throws IOException {
    for (int i = 0; i < pathsAndContents.length; i += 2) {
      Path p = root.resolve(pathsAndContents[i]);
      Files.createDirectories(p.getParent());
      Files.writeString(p, pathsAndContents[i + 1], StandardCharsets.UTF_8);
    }
    return root;
  }

  /** Runs one strategy over every file of a repository; returns the rewrites by path. */
  static Map<String, Transformation> transform(Strategy strategy, Path root, Evidence evidence)
      throws IOException {
    JavaRepo repo = JavaRepo.scan(root);
    Map<String, Transformation> out = new TreeMap<>();
    for (JavaRepo.SourceFile f : repo.files()) {
      strategy
          .transform(Path.of(f.path()), f.content(), evidence, repo)
          .ifPresent(t -> out.put(f.path(), t));
    }
    return out;
  }

  /**
   * SHA-256 of every file under {@code root} (hidden ones and {@code .git} included), by relative
   * path.
   */
  static Map<String, String> checksums(Path root) throws IOException {
    Map<String, String> sums = new TreeMap<>();
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.filter(Files::isRegularFile).toList()) {
        sums.put(root.relativize(p).toString(), sha256(Files.readAllBytes(p)));
      }
    }
    try (Stream<Path> walk = Files.walk(root)) {
      walk.filter(Files::isDirectory).forEach(d -> sums.put(root.relativize(d) + "/", "dir"));
    }
    return sums;
  }

  private static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Runs git in {@code dir}; fails the test unless it exits 0. Returns its output. */
  static String git(Path dir, String... args) throws IOException, InterruptedException {
    List<String> command =
        new ArrayList<>(List.of("git", "-c", "user.name=t", "-c", "user.email=t@t.invalid"));
    command.addAll(List.of(args));
    Process p =
        new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS), "git " + String.join(" ", args) + " timed out");
    assertEquals(0, p.exitValue(), "git " + String.join(" ", args) + " in " + dir + ": " + out);
    return out;
  }

  /** Applies a diff to a copy of a repository with {@code git apply}; returns the copy. */
  static Path appliedCopy(Path repo, Path diff, Path dir) throws IOException, InterruptedException {
    Path copy = dir.resolve("applied-" + repo.getFileName());
    copyTree(repo, copy);
    git(copy, "apply", diff.toAbsolutePath().toString());
    return copy;
  }

  /** Compiles every main Java source under {@code root} into {@code classes} and loads them. */
  static URLClassLoader compile(Path root, Path classes) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    List<Path> sources;
    try (Stream<Path> walk = Files.walk(root)) {
      sources =
          walk.filter(p -> p.toString().endsWith(".java") && !p.toString().contains("/src/test/"))
              .toList();
    }
    Files.createDirectories(classes);
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    try (StandardJavaFileManager fm =
        javac.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
      Boolean ok =
          javac
              .getTask(
                  null,
                  fm,
                  diagnostics,
                  List.of("-d", classes.toString(), "-proc:none"),
                  null,
                  fm.getJavaFileObjectsFromPaths(sources))
              .call();
      assertTrue(ok, "compiling " + root + ": " + diagnostics.getDiagnostics());
    }
    return new URLClassLoader(
        new URL[] {classes.toUri().toURL()}, TestRepos.class.getClassLoader());
  }

  /**
   * Evidence shaped like the paper's Robin-A: premature successes, late receipts, delays, mixed
   * timestamps.
   */
  static Evidence robinEvidence() {
    return Evidence.builder()
        .thorns("tool.set_reminder.premature:fail", 12)
        .thorns("tool.set_reminder:delay", 4)
        .topThorn("tool.set_reminder.premature:fail", 7.41)
        .prematureSuccesses(12)
        .meanReceiptLagSec(97.0)
        .timestampInconsistencies(1)
        .slowTool("tool.set_reminder", 3.0, 4, 94.0)
        .build();
  }

  /** Evidence of failing and timing-out calls. */
  static Evidence failureEvidence() {
    return Evidence.builder()
        .thorns("tool.forecast:fail", 6)
        .thorns("tool.forecast:timeout", 2)
        .topThorn("tool.forecast:fail", 4.2)
        .failures(6)
        .timeouts(2)
        .build();
  }

  /** Evidence of mixed naive and zoned timestamps only. */
  static Evidence timestampEvidence() {
    return Evidence.builder()
        .thorns("timestamp.inconsistent:delay", 3)
        .topThorn("timestamp.inconsistent:delay", 1.5)
        .timestampInconsistencies(3)
        .build();
  }
}
