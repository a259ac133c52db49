package dev.vigil.adapt.code;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;

/**
 * Checks that the patched files compile against the rest of the repository's main sources, in
 * memory with {@code javax.tools} (nothing is written anywhere). The main sources are every Java
 * file of the repository except test sources ({@code src/test/…}) and {@code module-info.java}; the
 * class path is only what the caller gives.
 *
 * <p>When the patched sources compile cleanly the check passes. Otherwise the unpatched sources are
 * compiled too: an error the patch adds (same file, same message) fails the check; when every error
 * was there before the patch (typically the repository's libraries are not on the class path) the
 * check is skipped with that reason, since javac could not judge the patched code in full.
 */
public final class CompileCheck {
  /** The check's name in reports. */
  public static final String NAME = "compile";

  /** More main sources than this are not compiled. */
  static final int MAX_SOURCES = 5000;

  private final List<Path> classpath;

  /**
   * @param classpath jars and directories the repository's sources need (may be empty)
   */
  public CompileCheck(List<Path> classpath) {
    this.classpath = List.copyOf(classpath);
  }

  /** Compiles the repository with the patched contents of some of its files. */
  public Check check(JavaRepo repo, Map<String, String> patched) throws IOException {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    if (javac == null) {
      return Check.skipped(
          NAME, "compile check skipped: this Java runtime has no compiler (run Vigil on a JDK)");
    }
    Map<String, String> original = new HashMap<>();
    for (JavaRepo.SourceFile f : repo.files()) {
      boolean main = !JavaRepo.isTestSource(f.path()) || patched.containsKey(f.path());
      if (main && !f.path().endsWith("module-info.java")) {
        original.put(f.path(), f.content());
      }
    }
    if (original.size() > MAX_SOURCES) {
      return Check.skipped(
          NAME, "compile check skipped: " + original.size() + " sources, more than " + MAX_SOURCES);
    }
    Map<String, String> after = new HashMap<>(original);
    after.putAll(patched);
    List<CompileError> errorsAfter = compile(javac, after);
    if (errorsAfter.isEmpty()) {
      return Check.passed(
          NAME,
          DiffCheck.plural(after.size(), "source")
              + " compiled in memory with javax.tools,"
              + " the patched ones included");
    }
    List<CompileError> errorsBefore = compile(javac, original);
    List<CompileError> added = new ArrayList<>(errorsAfter);
    for (CompileError e : errorsBefore) {
      added.stream().filter(a -> a.key().equals(e.key())).findFirst().ifPresent(added::remove);
    }
    if (!added.isEmpty()) {
      return Check.failed(
          NAME,
          "the patched code does not compile: "
              + String.join(
                  " / ",
                  added.subList(0, Math.min(3, added.size())).stream()
                      .map(CompileError::shown)
                      .toList()));
    }
    return Check.skipped(
        NAME,
        "compile check skipped: the repository does not compile on its own here ("
            + DiffCheck.plural(errorsBefore.size(), "error")
            + ", the first: "
            + errorsBefore.get(0).shown()
            + "), most likely for want of its libraries on the class path; the patch adds no error of its own");
  }

  /**
   * A compile error: {@code key} is path and message (no line, so that a shifted error stays
   * equal).
   */
  private record CompileError(String key, String shown) {}

  private List<CompileError> compile(JavaCompiler javac, Map<String, String> sources)
      throws IOException {
    DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
    List<JavaFileObject> units = new ArrayList<>();
    for (Map.Entry<String, String> e : sources.entrySet()) {
      units.add(new Source(e.getKey(), e.getValue()));
    }
    try (StandardJavaFileManager standard =
        javac.getStandardFileManager(diagnostics, Locale.ROOT, StandardCharsets.UTF_8)) {
      standard.setLocationFromPaths(StandardLocation.CLASS_PATH, classpath);
      JavaFileManager discarding =
          new ForwardingJavaFileManager<>(standard) {
            @Override
            public JavaFileObject getJavaFileForOutput(
                Location location, String className, JavaFileObject.Kind kind, FileObject sibling) {
              return new Discarded(className, kind);
            }
          };
      List<String> options =
          List.of(
              "-proc:none",
              "-nowarn",
              "-Xlint:none",
              "-Xmaxerrs",
              "100000",
              "-XDshould-stop.ifError=FLOW",
              "-encoding",
              "UTF-8");
      javac.getTask(null, discarding, diagnostics, options, null, units).call();
    }
    List<CompileError> errors = new ArrayList<>();
    for (Diagnostic<? extends JavaFileObject> d : diagnostics.getDiagnostics()) {
      if (d.getKind() == Diagnostic.Kind.ERROR) {
        String where = d.getSource() instanceof Source s ? s.path : "(no file)";
        String message = d.getMessage(Locale.ROOT).split("\n", 2)[0];
        errors.add(
            new CompileError(
                where + ": " + message, where + ":" + d.getLineNumber() + ": " + message));
      }
    }
    return errors;
  }

  /** A source held in memory. */
  private static final class Source extends SimpleJavaFileObject {
    final String path;
    private final String content;

    Source(String path, String content) {
      super(uri("/" + path), Kind.SOURCE);
      this.path = path;
      this.content = content;
    }

    @Override
    public CharSequence getCharContent(boolean ignoreEncodingErrors) {
      return content;
    }
  }

  /** A class file nobody keeps. */
  private static final class Discarded extends SimpleJavaFileObject {
    Discarded(String className, Kind kind) {
      super(uri("/" + className.replace('.', '/') + kind.extension), kind);
    }

    @Override
    public OutputStream openOutputStream() {
      return OutputStream.nullOutputStream();
    }
  }

  private static URI uri(String path) {
    try {
      return new URI("mem", null, path, null);
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(
          "cannot name source " + path + " for the compiler: " + e.getMessage(), e);
    }
  }
}
