package dev.vigil.adapt.prompt;

import java.nio.file.Path;
import java.time.Instant;

/**
 * One kept version of the prompt: a file under {@code OUT/prompts/} and its line in {@code
 * index.jsonl}.
 *
 * @param number the version number, from 1, in the order versions were kept
 * @param file the file's name inside {@code OUT/prompts/}, e.g. {@code
 *     prompt_0002_20261122T120000Z.txt}
 * @param sha256 the SHA-256 of the file's bytes, lower-case hex
 * @param bytes the file's size
 * @param created when the version was kept
 * @param source {@link #ORIGINAL} (the prompt file as read) or {@link #PASS} (written by a pass)
 * @param pass the pass that kept it (its id), empty when unknown
 * @param prompt the prompt file the pass read
 */
public record PromptVersion(
    int number,
    String file,
    String sha256,
    long bytes,
    Instant created,
    String source,
    String pass,
    String prompt) {
  /** The prompt file as Vigil read it, kept so that it can be restored. */
  public static final String ORIGINAL = "original";

  /** A prompt that a pass wrote. */
  public static final String PASS = "pass";

  /** The version's file in the versions directory {@code dir}. */
  public Path path(Path dir) {
    return dir.resolve(file);
  }

  /** The first 12 hex digits of the SHA-256, enough to name the version. */
  public String shortSha() {
    return sha256.substring(0, 12);
  }

  /** One line for people: number, short SHA-256, creation time, source, pass and file. */
  public String describe() {
    return "version "
        + number
        + "  sha256 "
        + shortSha()
        + "  "
        + created
        + "  "
        + source
        + (pass.isEmpty() ? "" : " (pass " + pass + ")")
        + "  "
        + file;
  }
}
