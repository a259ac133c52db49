package dev.vigil.adapt.prompt;

import dev.vigil.io.AtomicWrite;
import dev.vigil.io.OwnerOnly;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;

/**
 * The prompt stage of a pass (docs/ADAPTATION.md#prompt-adaptation): reads the prompt file,
 * replaces the adaptive section's content, checks the result with {@link PromptGuard}, keeps the
 * versions under {@code OUT/prompts/} and writes {@code OUT/new_prompt.txt}. The prompt file itself
 * is never written.
 */
public final class PromptAdaptation {
  /** The new prompt inside {@code OUT}. */
  public static final String NEW_PROMPT = "new_prompt.txt";

  /** The largest prompt file read: 16 MiB, far above any prompt a model takes. */
  public static final long MAX_PROMPT_BYTES = 16L << 20;

  private PromptAdaptation() {}

  /**
   * Adapts a prompt. Never throws for bad input or a failed write: every problem is a refused
   * outcome whose reason names the file, what is wrong and what to do, and a refusal writes
   * nothing.
   *
   * <p>On success, the prompt as read is kept as a version unless a kept version already has its
   * bytes (so the first pass keeps the original, and a prompt edited by hand since is kept too);
   * then the new prompt is kept as the next version unless it has the same bytes as the latest kept
   * version (status {@link PromptStatus#UNCHANGED}); then {@code OUT/new_prompt.txt} is replaced
   * atomically with the new prompt.
   *
   * @param promptFile the agent's prompt file (read only)
   * @param content the new adaptive content
   * @param outDir {@code --out}; created when missing
   * @param clock when versions are kept (their file names and {@code created})
   */
  public static PromptOutcome adapt(
      Path promptFile, AdaptiveContent content, Path outDir, Clock clock) {
    String name = promptFile.toString();
    Path newPrompt = outDir.resolve(NEW_PROMPT);
    byte[] original;
    try {
      original = read(promptFile);
    } catch (PromptRefusedException e) {
      return PromptOutcome.refused(promptFile, e, null, null, null, null);
    }
    String oldSha = Sha256.hex(original);
    PromptPatch patch;
    try {
      checkNotOutput(promptFile, newPrompt);
      patch = PromptPatch.build(name, original, content);
    } catch (PromptRefusedException e) {
      return refusedPatch(promptFile, e, original, oldSha);
    }
    String coreSha = Sha256.hex(patch.before().core(original));
    String newSha = Sha256.hex(patch.patched());
    LineEnding ending = patch.before().lineEnding();
    PromptVersions versions;
    try {
      versions = openVersions(outDir);
    } catch (PromptRefusedException e) {
      return PromptOutcome.refused(promptFile, e, oldSha, newSha, coreSha, ending);
    }
    try {
      OwnerOnly.createDirectories(outDir);
      Instant created = clock.instant();
      PromptVersion kept = versions.withSha256(oldSha).orElse(null);
      if (kept == null) {
        kept = versions.keep(original, created, PromptVersion.ORIGINAL, content.passId(), name);
      }
      PromptVersion latest = versions.latest().orElseThrow();
      boolean same = latest.sha256().equals(newSha);
      PromptVersion version =
          same
              ? latest
              : versions.keep(patch.patched(), created, PromptVersion.PASS, content.passId(), name);
      if (!holds(newPrompt, patch.patched())) {
        AtomicWrite.replace(newPrompt, patch.patched());
      }
      Path versionFile = version.path(versions.dir());
      return same
          ? PromptOutcome.unchanged(
              promptFile, newPrompt, version, versionFile, kept, oldSha, coreSha, ending)
          : PromptOutcome.written(
              promptFile, newPrompt, version, versionFile, kept, oldSha, coreSha, ending);
    } catch (IOException e) {
      return PromptOutcome.refused(
          promptFile, unwritable(outDir, e), oldSha, newSha, coreSha, ending);
    }
  }

  /**
   * The outcome when the patch could not be built: refused, with the core's hash and line ending
   * when the prompt's layout can still be read.
   */
  private static PromptOutcome refusedPatch(
      Path promptFile, PromptRefusedException e, byte[] original, String oldSha) {
    PromptLayout layout = layoutOrNull(promptFile.toString(), original);
    return PromptOutcome.refused(
        promptFile,
        e,
        oldSha,
        null,
        layout == null ? null : Sha256.hex(layout.core(original)),
        layout == null ? null : layout.lineEnding());
  }

  /** The refusal when the new prompt or its versions cannot be written into {@code outDir}. */
  private static PromptRefusedException unwritable(Path outDir, IOException e) {
    return new PromptRefusedException(
        RefusalReason.OUT_UNWRITABLE,
        "cannot write the new prompt into "
            + outDir
            + ": "
            + e
            + "; check that it is a writable directory");
  }

  /**
   * The versions kept under {@code outDir}, read before anything is written: refused when {@code
   * outDir} is not a directory or the versions' index cannot be read.
   */
  private static PromptVersions openVersions(Path outDir) throws PromptRefusedException {
    if (Files.exists(outDir) && !Files.isDirectory(outDir)) {
      throw new PromptRefusedException(
          RefusalReason.OUT_UNWRITABLE,
          "cannot write the new prompt into "
              + outDir
              + ": it is not a directory; give --out a directory");
    }
    try {
      return PromptVersions.open(outDir);
    } catch (IllegalArgumentException | IOException e) {
      String message =
          e instanceof IOException
              ? "cannot read "
                  + outDir.resolve(PromptVersions.DIR).resolve(PromptVersions.INDEX)
                  + ": "
                  + e
              : e.getMessage();
      throw new PromptRefusedException(
          RefusalReason.VERSIONS_UNREADABLE,
          "prompt versions: " + message + "; nothing was written");
    }
  }

  private static byte[] read(Path file) throws PromptRefusedException {
    if (Files.isDirectory(file)) {
      throw new PromptRefusedException(
          RefusalReason.PROMPT_UNREADABLE,
          "prompt " + file + " is a directory, not a file; give the prompt file");
    }
    try {
      if (Files.size(file) > MAX_PROMPT_BYTES) {
        throw tooLarge(file, Files.size(file));
      }
      byte[] bytes = Files.readAllBytes(file);
      if (bytes.length > MAX_PROMPT_BYTES) {
        throw tooLarge(file, bytes.length);
      }
      return bytes;
    } catch (NoSuchFileException e) {
      throw new PromptRefusedException(
          RefusalReason.PROMPT_UNREADABLE,
          "prompt " + file + " does not exist; check the path given to --prompt");
    } catch (IOException e) {
      throw new PromptRefusedException(
          RefusalReason.PROMPT_UNREADABLE,
          "prompt " + file + " cannot be read (" + e + "); check its permissions");
    }
  }

  private static PromptRefusedException tooLarge(Path file, long size) {
    return new PromptRefusedException(
        RefusalReason.PROMPT_TOO_LARGE,
        "prompt "
            + file
            + " is "
            + size
            + " bytes, more than the "
            + MAX_PROMPT_BYTES
            + " a prompt file may have; is it the right file?");
  }

  private static void checkNotOutput(Path promptFile, Path newPrompt)
      throws PromptRefusedException {
    boolean same =
        promptFile.toAbsolutePath().normalize().equals(newPrompt.toAbsolutePath().normalize());
    if (!same && Files.exists(newPrompt)) {
      try {
        same = Files.isSameFile(promptFile, newPrompt);
      } catch (IOException e) {
        same = false;
      }
    }
    if (same) {
      throw new PromptRefusedException(
          RefusalReason.PROMPT_IS_OUTPUT,
          "prompt "
              + promptFile
              + " is "
              + newPrompt
              + " itself, which this pass would replace; Vigil never modifies the prompt it reads: copy "
              + "it elsewhere and give that copy to --prompt");
    }
  }

  private static PromptLayout layoutOrNull(String name, byte[] bytes) {
    try {
      return PromptLayout.parse(name, bytes);
    } catch (PromptRefusedException e) {
      return null;
    }
  }

  private static boolean holds(Path file, byte[] bytes) {
    try {
      return Files.isRegularFile(file)
          && Files.size(file) == bytes.length
          && Arrays.equals(Files.readAllBytes(file), bytes);
    } catch (IOException e) {
      return false;
    }
  }
}
