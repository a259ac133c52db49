package dev.vigil.adapt.code;

import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.expr.MethodCallExpr;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The Java sources of {@code --repo}, read once and never written. Directories named {@code
 * target}, {@code build} or {@code node_modules}, and hidden ones ({@code .git}, {@code .idea}, …)
 * are skipped, as are files that are not UTF-8 or larger than 2 MB (each with a note). Symbolic
 * links are not followed. A file is parsed with JavaParser when a question needs it, once.
 */
public final class JavaRepo {
  /** Larger files are skipped. */
  static final long MAX_FILE_BYTES = 2L * 1024 * 1024;

  private static final Set<String> SKIPPED_DIRS = Set.of("target", "build", "node_modules");

  /**
   * A Java file of the repository.
   *
   * @param path relative to the repository, {@code /} separators
   * @param content its text
   */
  public record SourceFile(String path, String content) {}

  private final Path root;
  private final List<SourceFile> files;
  private final List<String> notes;
  private final Map<String, Optional<CompilationUnit>> units = new HashMap<>();
  private FutureMethods futures;

  private JavaRepo(Path root, List<SourceFile> files, List<String> notes) {
    this.root = root;
    this.files = List.copyOf(files);
    this.notes = List.copyOf(notes);
  }

  /**
   * Reads the Java sources under {@code root}.
   *
   * @throws IOException when the directory cannot be walked
   */
  public static JavaRepo scan(Path root) throws IOException {
    List<SourceFile> files = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    Path base = root.toAbsolutePath().normalize();
    Files.walkFileTree(
        base,
        new SimpleFileVisitor<>() {
          @Override
          public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
            if (dir.equals(base)) {
              return FileVisitResult.CONTINUE;
            }
            String name = dir.getFileName().toString();
            return name.startsWith(".") || SKIPPED_DIRS.contains(name)
                ? FileVisitResult.SKIP_SUBTREE
                : FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFile(Path file, BasicFileAttributes attrs)
              throws IOException {
            String name = file.getFileName().toString();
            if (!attrs.isRegularFile() || !name.endsWith(".java") || name.startsWith(".")) {
              return FileVisitResult.CONTINUE;
            }
            String rel = relative(base, file);
            if (attrs.size() > MAX_FILE_BYTES) {
              notes.add(rel + ": skipped, larger than 2 MB");
              return FileVisitResult.CONTINUE;
            }
            try {
              files.add(
                  new SourceFile(
                      rel,
                      StandardCharsets.UTF_8
                          .newDecoder()
                          .onMalformedInput(CodingErrorAction.REPORT)
                          .onUnmappableCharacter(CodingErrorAction.REPORT)
                          .decode(ByteBuffer.wrap(Files.readAllBytes(file)))
                          .toString()));
            } catch (CharacterCodingException e) {
              notes.add(rel + ": skipped, not UTF-8");
            }
            return FileVisitResult.CONTINUE;
          }

          @Override
          public FileVisitResult visitFileFailed(Path file, IOException e) {
            notes.add(relative(base, file) + ": skipped, unreadable (" + e.getMessage() + ")");
            return FileVisitResult.CONTINUE;
          }
        });
    files.sort((a, b) -> a.path().compareTo(b.path()));
    return new JavaRepo(base, files, notes);
  }

  private static String relative(Path base, Path file) {
    return base.relativize(file).toString().replace(java.io.File.separatorChar, '/');
  }

  /** The repository's directory, absolute. */
  public Path root() {
    return root;
  }

  /** Every Java file read, sorted by path. */
  public List<SourceFile> files() {
    return files;
  }

  /** Files that were skipped, and why. */
  public List<String> notes() {
    return notes;
  }

  /** The file at a relative path. */
  public Optional<SourceFile> file(String path) {
    return files.stream().filter(f -> f.path().equals(path)).findFirst();
  }

  /** True for test sources ({@code src/test/…}): scanned for nothing and never rewritten. */
  public static boolean isTestSource(String path) {
    return path.startsWith("src/test/") || path.contains("/src/test/");
  }

  /**
   * The parsed form of a file, or empty when JavaParser cannot parse it; parsed once, when first
   * asked.
   */
  Optional<CompilationUnit> unit(SourceFile file) {
    return units.computeIfAbsent(
        file.path(),
        p -> {
          try {
            return Optional.of(JavaFile.parseUnit(file.content()));
          } catch (IllegalArgumentException e) {
            return Optional.empty();
          }
        });
  }

  /**
   * The repository method that returns a future and that {@code call} calls, or null. A call on a
   * receiver declared in the calling file with a type the repository does not declare (an executor,
   * a library client) is not one, even when a repository method has the same name.
   *
   * @param declaredTypes the calling file's {@link Syntax#declaredTypes}
   */
  FutureMethods.FutureMethod futureCall(MethodCallExpr call, Map<String, String> declaredTypes) {
    return futures().called(call, declaredTypes);
  }

  /** False when {@code source} calls none of the repository's methods that return a future. */
  boolean mayCallFutures(String source) {
    return futures().mayBeCalledIn(source, false);
  }

  /**
   * False when {@code source} calls none of the repository's methods that return a future of a
   * confirmation.
   */
  boolean mayCallReceiptFutures(String source) {
    return futures().mayBeCalledIn(source, true);
  }

  private FutureMethods futures() {
    if (futures == null) {
      futures =
          FutureMethods.index(
              files.stream()
                  .filter(f -> FutureMethods.mayDeclare(f.content()))
                  .map(this::unit)
                  .flatMap(Optional::stream)
                  .toList(),
              word ->
                  files.stream()
                      .filter(f -> f.content().contains(word))
                      .map(this::unit)
                      .flatMap(Optional::stream)
                      .toList());
    }
    return futures;
  }
}
