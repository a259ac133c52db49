package dev.vigil.demo;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;

/** A working copy of Robin's source tree (without its build output), compiled with javax.tools. */
final class RobinCopy {
  private RobinCopy() {}

  /** Copies Robin's tree into {@code target}, leaving out {@code target/} and hidden entries. */
  static Path copy(Path source, Path target) throws IOException {
    try (Stream<Path> files = Files.walk(source)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Path rel = source.relativize(f);
        if (!rel.toString().isEmpty()
            && (rel.getName(0).toString().equals("target")
                || rel.getFileName().toString().startsWith("."))) {
          continue;
        }
        Path to = target.resolve(rel.toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(to);
        } else {
          Files.copy(f, to);
        }
      }
    }
    return target;
  }

  /** The jars of Robin's run-time class path. */
  static List<Path> libraries(Path lib) throws IOException {
    try (Stream<Path> s = Files.list(lib)) {
      return s.filter(p -> p.toString().endsWith(".jar")).sorted().toList();
    }
  }

  /**
   * Compiles {@code copy/src/main/java} into {@code copy/target/classes} for Java 17 with parameter
   * names.
   *
   * @throws IllegalStateException with the compiler's messages when it does not compile
   */
  static Path compile(Path copy, List<Path> libraries) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) {
      throw new IllegalStateException(
          "the demo needs a JDK (javax.tools), not a JRE: " + System.getProperty("java.home"));
    }
    Path classes = Files.createDirectories(copy.resolve("target/classes"));
    List<Path> sources = new ArrayList<>();
    try (Stream<Path> s = Files.walk(copy.resolve("src/main/java"))) {
      s.filter(p -> p.toString().endsWith(".java")).sorted().forEach(sources::add);
    }
    StringWriter messages = new StringWriter();
    try (StandardJavaFileManager files = javac.getStandardFileManager(null, null, null)) {
      List<String> options =
          List.of(
              "--release",
              "17",
              "-parameters",
              "-proc:none",
              "-d",
              classes.toString(),
              "-cp",
              libraries.stream()
                  .map(Path::toString)
                  .collect(Collectors.joining(java.io.File.pathSeparator)));
      boolean ok =
          javac
              .getTask(
                  messages, files, null, options, null, files.getJavaFileObjectsFromPaths(sources))
              .call();
      if (!ok) {
        throw new IllegalStateException("Robin at " + copy + " does not compile:\n" + messages);
      }
    }
    return classes;
  }
}
