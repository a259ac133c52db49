package dev.vigil.adapt.code;

import com.github.difflib.patch.PatchFailedException;
import com.github.difflib.unifieddiff.UnifiedDiff;
import com.github.difflib.unifieddiff.UnifiedDiffFile;
import com.github.difflib.unifieddiff.UnifiedDiffReader;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Checks that a diff applies to the files of {@code --repo} as they are on disk, without writing
 * anything inside the repository: the files the diff names are copied into a temporary directory
 * outside it, where {@code git apply --check} runs (with {@code GIT_CEILING_DIRECTORIES} so that
 * git never mistakes an enclosing directory for a repository), then {@code git apply}, and the
 * result is compared with what the strategy meant to write. When git is not on the PATH the diff is
 * parsed and applied with java-diff-utils instead, and the note says so.
 */
public final class DiffCheck {
  /** The check's name in reports. */
  public static final String NAME = "git apply --check";

  private final Git git;

  /**
   * A check that runs {@code git}.
   *
   * @param git the git executable
   * @param timeout how long one git command may take
   */
  public DiffCheck(String git, Duration timeout) {
    this.git = new Git(git, timeout);
  }

  /**
   * Checks a diff against {@code repo} (a diff written elsewhere, an LLM's for instance, can be
   * checked with an empty {@code expected}: it must then only parse and apply).
   *
   * @param expected for each path the diff changes, the content it should produce; paths left out
   *     are only checked to apply
   */
  public Check check(Path repo, String diff, Map<String, String> expected) throws IOException {
    Path root = repo.toAbsolutePath().normalize();
    Set<String> paths = new LinkedHashSet<>();
    Set<String> named = new LinkedHashSet<>();
    for (String line : diff.split("\n", -1)) {
      if (line.startsWith("--- ") || line.startsWith("+++ ")) {
        String p = line.substring(4).split("\t", 2)[0].trim();
        if (!p.equals("/dev/null")) {
          p = p.startsWith("a/") || p.startsWith("b/") ? p.substring(2) : p;
          Path resolved = root.resolve(p).normalize();
          if (p.isEmpty()
              || Path.of(p).isAbsolute()
              || !resolved.startsWith(root)
              || resolved.equals(root)) {
            return Check.failed(
                NAME, "the diff names `" + p + "`, which is not a file inside --repo " + root);
          }
          named.add(p);
          if (line.startsWith("--- ")) {
            paths.add(p);
          }
        }
      }
    }
    if (named.isEmpty()) {
      return Check.failed(NAME, "the diff names no file");
    }
    Path temporary = Path.of(System.getProperty("java.io.tmpdir")).toAbsolutePath().normalize();
    if (temporary.startsWith(root)) {
      return Check.failed(
          NAME,
          "the temporary directory "
              + temporary
              + " is inside --repo, and nothing may be"
              + " written there; set java.io.tmpdir to a directory outside the repository");
    }
    Path tmp = Files.createTempDirectory(temporary, "vigil-apply-");
    try {
      Path work = Files.createDirectory(tmp.resolve("work"));
      for (String p : paths) {
        Path source = root.resolve(p);
        if (Files.isRegularFile(source)) {
          Path copy = work.resolve(p);
          Files.createDirectories(copy.getParent());
          Files.copy(source, copy);
        } else {
          return Check.failed(NAME, p + " does not exist under --repo " + root);
        }
      }
      Path patch = tmp.resolve("patch.diff");
      Files.writeString(patch, diff, StandardCharsets.UTF_8);
      return git.available()
          ? withGit(tmp, work, patch, expected, named.size())
          : withDiffUtils(root, diff, expected);
    } finally {
      deleteTree(tmp);
    }
  }

  private Check withGit(Path tmp, Path work, Path patch, Map<String, String> expected, int files)
      throws IOException {
    Map<String, String> env = Map.of("GIT_CEILING_DIRECTORIES", tmp.toString());
    Git.Result check = git.run(work, env, "apply", "--check", "--verbose", patch.toString());
    if (!check.ok()) {
      return Check.failed(NAME, "the diff does not apply: " + firstLines(check.output()));
    }
    if (check.output().contains("Skipped patch")) {
      return Check.failed(NAME, "git skipped part of the diff: " + firstLines(check.output()));
    }
    Git.Result apply = git.run(work, env, "apply", patch.toString());
    if (!apply.ok()) {
      return Check.failed(
          NAME, "git apply --check passed but git apply failed: " + firstLines(apply.output()));
    }
    String mismatch =
        compare(
            expected,
            p ->
                Files.isRegularFile(work.resolve(p))
                    ? Files.readString(work.resolve(p), StandardCharsets.UTF_8)
                    : null);
    if (mismatch != null) {
      return Check.failed(NAME, mismatch);
    }
    return Check.passed(
        NAME,
        "applies to "
            + plural(files, "file")
            + " on disk (copied outside the repository)"
            + (expected.isEmpty() ? "" : "; git apply reproduces the rewrite exactly"));
  }

  private Check withDiffUtils(Path root, String diff, Map<String, String> expected)
      throws IOException {
    Map<String, String> applied = new java.util.HashMap<>();
    String problem = applyInMemory(root, diff, applied);
    if (problem != null) {
      return Check.failed(NAME, "the diff " + problem);
    }
    String mismatch = compare(expected, applied::get);
    if (mismatch != null) {
      return Check.failed(NAME, mismatch);
    }
    return Check.passed(
        NAME,
        "git is not on the PATH (`"
            + git.executable()
            + "`): the diff was parsed and applied"
            + " with java-diff-utils instead and reproduces the rewrite exactly");
  }

  /**
   * Applies a diff with java-diff-utils to copies in memory, filling {@code patched} with each
   * changed file's new content.
   *
   * @return what went wrong ("does not parse: …", "does not apply to …"), or null
   */
  static String applyInMemory(Path root, String diff, Map<String, String> patched)
      throws IOException {
    UnifiedDiff parsed;
    try {
      parsed =
          UnifiedDiffReader.parseUnifiedDiff(
              new ByteArrayInputStream(diff.getBytes(StandardCharsets.UTF_8)));
    } catch (IOException | RuntimeException e) {
      return "does not parse: " + e.getMessage();
    }
    for (UnifiedDiffFile f : parsed.getFiles()) {
      boolean created = f.getFromFile() == null || f.getFromFile().equals("/dev/null");
      String name = created ? f.getToFile() : f.getFromFile();
      String p = name.startsWith("a/") || name.startsWith("b/") ? name.substring(2) : name;
      String original = created ? "" : Files.readString(root.resolve(p), StandardCharsets.UTF_8);
      try {
        List<String> lines = f.getPatch().applyTo(DiffWriter.lines(original));
        String text = String.join("\n", lines);
        boolean open = !original.isEmpty() && !original.endsWith("\n");
        patched.put(p, lines.isEmpty() || open ? text : text + "\n");
      } catch (PatchFailedException e) {
        return "does not apply to " + p + ": " + e.getMessage();
      }
    }
    return null;
  }

  private interface Reader {
    String read(String path) throws IOException;
  }

  private static String compare(Map<String, String> expected, Reader actual) throws IOException {
    for (Map.Entry<String, String> e : expected.entrySet()) {
      String got = actual.read(e.getKey());
      if (got == null || !got.equals(e.getValue())) {
        return "the diff applies, but "
            + e.getKey()
            + " does not come out as the strategy rewrote it";
      }
    }
    return null;
  }

  private static String firstLines(String output) {
    List<String> lines = new ArrayList<>(List.of(output.split("\n")));
    lines.removeIf(l -> l.startsWith("Checking patch"));
    List<String> errors =
        lines.stream()
            .filter(l -> l.startsWith("error:") && !l.startsWith("error: while searching for"))
            .toList();
    lines = errors.isEmpty() ? lines : new ArrayList<>(errors);
    String joined = String.join(" / ", lines.subList(0, Math.min(3, lines.size())));
    return joined.isBlank() ? "(git said nothing)" : joined;
  }

  static String plural(int n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }

  static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
