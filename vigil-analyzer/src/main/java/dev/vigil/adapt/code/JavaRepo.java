package dev.vigil.adapt.code;

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
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Java sources of {@code --repo}, read once and never written. Directories named {@code target}, {@code build}
 * or {@code node_modules}, and hidden ones ({@code .git}, {@code .idea}, …) are skipped, as are files that are not
 * UTF-8 or larger than 2 MB (each with a note). Symbolic links are not followed.
 */
public final class JavaRepo {
  /** Larger files are skipped. */
  static final long MAX_FILE_BYTES = 2L * 1024 * 1024;
  private static final Set<String> SKIPPED_DIRS = Set.of("target", "build", "node_modules");
  private static final Pattern FUTURE_TYPE =
      Pattern.compile("\\b(CompletableFuture|CompletionStage|Future|ListenableFuture)\\s*<");
  private static final Pattern NAME_AND_PAREN = Pattern.compile("\\s+([A-Za-z_$][\\w$]*)\\s*\\(");

  /**
   * A Java file of the repository.
   *
   * @param path    relative to the repository, {@code /} separators
   * @param content its text
   */
  public record SourceFile(String path, String content) {}

  /** A method declared somewhere in the repository that returns a future. */
  record FutureMethod(String name, String futureType, String typeArgument) {
    /** True when the method's name or the future's type argument names a receipt or confirmation. */
    boolean ofReceipt() {
      return ReceiptWords.in(name) || ReceiptWords.in(typeArgument);
    }
  }

  private final Path root;
  private final List<SourceFile> files;
  private final List<String> notes;
  private final Map<String, FutureMethod> futures;
  private final Set<String> typeNames;
  private final Map<String, JavaSource> parsed = new HashMap<>();

  private JavaRepo(Path root, List<SourceFile> files, List<String> notes) {
    this.root = root;
    this.files = List.copyOf(files);
    this.notes = List.copyOf(notes);
    this.futures = indexFutures();
    Set<String> types = new java.util.HashSet<>();
    for (SourceFile f : this.files) {
      source(f).types().forEach(t -> types.add(t.name()));
    }
    this.typeNames = Set.copyOf(types);
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
    Files.walkFileTree(base, new SimpleFileVisitor<>() {
      @Override
      public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
        if (dir.equals(base)) {
          return FileVisitResult.CONTINUE;
        }
        String name = dir.getFileName().toString();
        return name.startsWith(".") || SKIPPED_DIRS.contains(name)
            ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
      }

      @Override
      public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
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
          files.add(new SourceFile(rel, StandardCharsets.UTF_8.newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(Files.readAllBytes(file))).toString()));
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

  /** The parsed form of a file, cached. */
  JavaSource source(SourceFile file) {
    return parsed.computeIfAbsent(file.path(), p -> JavaSource.parse(file.content()));
  }

  /**
   * The repository future method called by the identifier at {@code nameStart}, or null. A call on a receiver
   * declared in the same file with a type the repository does not declare (an executor, a library client) is not
   * one, even when a repository method has the same name.
   */
  FutureMethod futureCall(JavaSource js, int nameStart) {
    int nameEnd = nameStart;
    while (nameEnd < js.masked.length() && Character.isJavaIdentifierPart(js.masked.charAt(nameEnd))) {
      nameEnd++;
    }
    FutureMethod f = futures.get(js.masked.substring(nameStart, nameEnd));
    int dot = js.skipSpaceBack(nameStart - 1);
    if (f == null || dot < 0 || js.masked.charAt(dot) != '.') {
      return f;
    }
    int end = js.skipSpaceBack(dot - 1);
    int start = end;
    while (start >= 0 && Character.isJavaIdentifierPart(js.masked.charAt(start))) {
      start--;
    }
    String receiver = js.masked.substring(start + 1, end + 1);
    if (receiver.isEmpty() || receiver.equals("this") || receiver.equals("super")) {
      return f;
    }
    String type = js.declaredType(receiver);
    return type.isEmpty() || typeNames.contains(type) ? f : null;
  }

  private Map<String, FutureMethod> indexFutures() {
    Map<String, FutureMethod> found = new LinkedHashMap<>();
    for (SourceFile f : files) {
      JavaSource js = source(f);
      Matcher m = FUTURE_TYPE.matcher(js.masked);
      while (m.find()) {
        int close = js.matchForward(m.end() - 1);
        if (close < 0) {
          continue;
        }
        Matcher name = NAME_AND_PAREN.matcher(js.masked);
        if (!name.region(close + 1, js.masked.length()).lookingAt()) {
          continue;
        }
        String typeArg = js.masked.substring(m.end(), close).replaceAll("\\s+", " ").trim();
        FutureMethod method = new FutureMethod(name.group(1), m.group(1), typeArg);
        FutureMethod known = found.get(method.name());
        if (known == null || !known.ofReceipt() && method.ofReceipt()) {
          found.put(method.name(), method);
        }
      }
    }
    return Collections.unmodifiableMap(found);
  }
}
