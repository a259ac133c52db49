package dev.vigil.watch;

import dev.vigil.adapt.prompt.PromptAdaptation;
import dev.vigil.io.OwnerOnly;
import dev.vigil.report.Artifacts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Keeps each pass of {@code watch}: the latest artifacts stay in the report directory, and a copy
 * of the pass's {@code report.json}, {@code report.md}, {@code report.html} and {@code
 * new_prompt.txt} goes to {@code passes/<yyyyMMdd'T'HHmmss'Z'>/} ({@code -2}, {@code -3}… for later
 * passes within the same second). Prompt versions and proposals are kept by their own stages under
 * {@code prompts/} and {@code proposals/}.
 */
final class PassArchive {
  /** The subdirectory of kept passes. */
  public static final String PASSES = "passes";

  /** Timestamps in file names (docs/DESIGN.md#artifacts). */
  static final DateTimeFormatter NAME =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  private PassArchive() {}

  /**
   * Copies the pass's artifacts from {@code out} into a new directory under {@code out/passes/}.
   *
   * @param withPrompt whether the pass wrote {@code new_prompt.txt}
   * @return the new directory
   */
  public static Path keep(Path out, Instant passAt, boolean withPrompt) throws IOException {
    Path passes = out.resolve(PASSES);
    OwnerOnly.createDirectories(passes);
    String name = NAME.format(passAt);
    Path dir = passes.resolve(name);
    for (int n = 2; Files.exists(dir); n++) {
      dir = passes.resolve(name + "-" + n);
    }
    Files.createDirectory(dir);
    copy(out.resolve(Artifacts.REPORT_JSON), dir);
    copy(out.resolve(Artifacts.REPORT_MD), dir);
    copy(out.resolve(Artifacts.REPORT_HTML), dir);
    if (withPrompt) {
      copy(out.resolve(PromptAdaptation.NEW_PROMPT), dir);
    }
    return dir;
  }

  private static void copy(Path file, Path dir) throws IOException {
    if (Files.exists(file)) {
      Files.copy(file, dir.resolve(file.getFileName()), StandardCopyOption.REPLACE_EXISTING);
    }
  }
}
