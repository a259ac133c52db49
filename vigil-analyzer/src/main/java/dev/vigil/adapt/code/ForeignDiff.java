package dev.vigil.adapt.code;

import dev.vigil.io.OwnerOnly;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A diff written outside Vigil's strategies (the LLM's, through {@code emit_unified_diff}), held to
 * the same checks as any proposal (docs/ADAPTATION.md#code-proposals and docs/STAGES.md): it must
 * name files under {@code --repo}, apply to them as they are on disk ({@link DiffCheck}) and, when
 * it changes Java sources, compile ({@link CompileCheck}). An accepted diff is written as {@code
 * OUT/proposals/LLM_patch_<ts>.diff} with {@code LLM_PR_<ts>.md}.
 */
public final class ForeignDiff {
  /**
   * The checks of one diff.
   *
   * @param accepted true when every check passed (or could not run)
   * @param files the files the diff changes
   * @param checks the checks, in order
   * @param reason why it was rejected, or null
   */
  public record Verdict(boolean accepted, List<String> files, List<Check> checks, String reason) {
    /** Copies the lists. */
    public Verdict {
      files = List.copyOf(files);
      checks = List.copyOf(checks);
    }
  }

  private final CodeProposals.Settings settings;

  /**
   * @param settings how diffs are checked
   */
  public ForeignDiff(CodeProposals.Settings settings) {
    this.settings = settings;
  }

  /** Checks {@code diff} against {@code repo}; nothing is written. */
  public Verdict check(Path repo, String diff) throws IOException {
    if (repo == null || !Files.isDirectory(repo)) {
      return new Verdict(false, List.of(), List.of(), "there is no --repo to apply a diff to");
    }
    String text = diff == null ? "" : diff.replace("\r\n", "\n");
    if (!text.isEmpty() && !text.endsWith("\n")) {
      text += "\n";
    }
    List<Check> checks = new ArrayList<>();
    Check applies =
        new DiffCheck(settings.git(), settings.processTimeout()).check(repo, text, Map.of());
    checks.add(applies);
    if (!applies.ok()) {
      return new Verdict(false, List.of(), checks, applies.detail());
    }
    Map<String, String> patched = new LinkedHashMap<>();
    String parseProblem = DiffCheck.applyInMemory(repo, text, patched);
    List<String> files = List.copyOf(patched.keySet());
    if (parseProblem != null) {
      checks.add(
          Check.skipped(
              CompileCheck.NAME, "git applies it, but with java-diff-utils it " + parseProblem));
      return new Verdict(true, files, checks, null);
    }
    Map<String, String> java = new LinkedHashMap<>();
    patched.forEach(
        (p, c) -> {
          if (p.endsWith(".java")) {
            java.put(p, c);
          }
        });
    if (java.isEmpty()) {
      checks.add(Check.skipped(CompileCheck.NAME, "the diff changes no Java source"));
      return new Verdict(true, files, checks, null);
    }
    Check compiles = new CompileCheck(settings.classpath()).check(JavaRepo.scan(repo), java);
    checks.add(compiles);
    return new Verdict(compiles.ok(), files, checks, compiles.ok() ? null : compiles.detail());
  }

  /**
   * Writes an accepted diff and its PR note.
   *
   * @param author who wrote the diff (the model's name)
   * @param why the evidence that called for it, one line each
   */
  public Proposal write(
      Path repo,
      String diff,
      Verdict verdict,
      String author,
      List<String> why,
      Path outDir,
      Instant now)
      throws IOException {
    if (!verdict.accepted()) {
      throw new IllegalArgumentException("a rejected diff is never written: " + verdict.reason());
    }
    Path dir = outDir.resolve("proposals");
    OwnerOnly.createDirectories(dir);
    String stem = CodeProposals.FILE_TS.format(now);
    Path diffPath = dir.resolve("LLM_patch_" + stem + ".diff");
    Path prPath = dir.resolve("LLM_PR_" + stem + ".md");
    Path root = repo.toAbsolutePath().normalize();
    String apply = CodeProposals.applyCommand(settings, root, diffPath);
    StringBuilder md =
        new StringBuilder("# A patch proposed by the LLM (`").append(author).append("`)\n\n");
    md.append("Written by the model during Vigil's pass of ")
        .append(now)
        .append(" through `emit_unified_diff`, ")
        .append("then checked by Vigil like any proposal. Patch: `")
        .append(diffPath.getFileName())
        .append("`.\n\n");
    md.append("## Why\n\n");
    why.forEach(w -> md.append("- ").append(w).append('\n'));
    md.append("\n## Files\n\n");
    verdict.files().forEach(f -> md.append("- `").append(f).append("`\n"));
    md.append("\n## Checks\n\n");
    verdict.checks().forEach(c -> md.append("- ").append(c).append('\n'));
    md.append("\n## Apply\n\n```bash\n")
        .append(apply)
        .append("\n```\n\n## Roll back\n\n```bash\n")
        .append(apply.replaceFirst(" apply ", " apply -R "))
        .append("\n```\n");
    String text = diff.replace("\r\n", "\n");
    CodeProposals.replace(diffPath, text.endsWith("\n") ? text : text + "\n");
    CodeProposals.replace(prPath, md.toString());
    return Proposal.written(
        "llm",
        1.0,
        verdict.files(),
        diffPath,
        prPath,
        apply,
        verdict.checks(),
        List.of("written by " + author));
  }
}
