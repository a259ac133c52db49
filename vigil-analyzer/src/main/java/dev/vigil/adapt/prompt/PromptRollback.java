package dev.vigil.adapt.prompt;

import dev.vigil.io.AtomicWrite;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A kept prompt version written back as {@code OUT/new_prompt.txt} (docs/COMMANDS.md#rollback), for
 * the user to apply. The version's bytes are checked against the SHA-256 in the index before
 * anything is written.
 *
 * @param version the version restored
 * @param newPrompt {@code OUT/new_prompt.txt}
 * @param previousSha256 SHA-256 of what {@code new_prompt.txt} held before; null when it did not
 *     exist
 */
public record PromptRollback(PromptVersion version, Path newPrompt, String previousSha256) {

  /**
   * Restores a version.
   *
   * @param outDir the {@code --out} directory of earlier passes
   * @param selector a version number or a SHA-256 prefix of at least 6 hex digits (see {@link
   *     PromptVersions#select})
   * @throws IllegalArgumentException when {@code outDir} is not a directory, no versions are kept,
   *     the selector names none or several, or the kept file is missing or altered; the message
   *     says which and lists candidates
   */
  public static PromptRollback to(Path outDir, String selector) throws IOException {
    if (!Files.isDirectory(outDir)) {
      throw new IllegalArgumentException(outDir + " is not a directory");
    }
    PromptVersions versions = PromptVersions.open(outDir);
    PromptVersion v = versions.select(selector);
    byte[] bytes = versions.read(v);
    Path newPrompt = outDir.resolve(PromptAdaptation.NEW_PROMPT);
    String previous =
        Files.isRegularFile(newPrompt) ? Sha256.hex(Files.readAllBytes(newPrompt)) : null;
    if (!v.sha256().equals(previous)) {
      AtomicWrite.replace(newPrompt, bytes);
    }
    return new PromptRollback(v, newPrompt, previous);
  }

  /** True when {@code new_prompt.txt} already held the version: nothing was written. */
  public boolean alreadyThere() {
    return version.sha256().equals(previousSha256);
  }
}
