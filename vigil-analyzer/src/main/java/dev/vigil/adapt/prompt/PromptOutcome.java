package dev.vigil.adapt.prompt;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;

/**
 * The result of the prompt stage (docs/ADAPTATION.md#prompt-adaptation), and the {@code prompt}
 * section of {@code report.json}.
 *
 * @param status written, unchanged or refused
 * @param file the prompt file that was read
 * @param refusal why it was refused; null unless refused
 * @param reason the refusal's message, naming the file, what is wrong and what to do; null unless
 *     refused
 * @param newPrompt {@code OUT/new_prompt.txt}; null when refused
 * @param version the kept version {@code new_prompt.txt} holds; 0 when refused
 * @param versionFile that version's file under {@code OUT/prompts/}; null when refused
 * @param originalVersion the kept version holding the prompt file as read; 0 when refused
 * @param oldSha256 SHA-256 of the prompt file as read; null when it could not be read
 * @param newSha256 SHA-256 of the new prompt; null when no patch was built
 * @param coreSha256 SHA-256 of the core block, markers included, identical in old and new; null
 *     when the prompt has no single core block
 * @param lineEnding the line ending of the new content (the file's); null when the prompt was not
 *     parsed
 * @param note one sentence for people: what was done
 */
public record PromptOutcome(
    PromptStatus status,
    Path file,
    RefusalReason refusal,
    String reason,
    Path newPrompt,
    int version,
    Path versionFile,
    int originalVersion,
    String oldSha256,
    String newSha256,
    String coreSha256,
    LineEnding lineEnding,
    String note) {

  /** A new version was kept and written. */
  public static PromptOutcome written(
      Path file,
      Path newPrompt,
      PromptVersion version,
      Path versionFile,
      PromptVersion original,
      String oldSha256,
      String coreSha256,
      LineEnding lineEnding) {
    return new PromptOutcome(
        PromptStatus.WRITTEN,
        file,
        null,
        null,
        newPrompt,
        version.number(),
        versionFile,
        original.number(),
        oldSha256,
        version.sha256(),
        coreSha256,
        lineEnding,
        "adaptive section rewritten; kept as version "
            + version.number()
            + " and written to "
            + newPrompt);
  }

  /**
   * The new prompt has the same bytes as the latest kept version, which {@code new_prompt.txt} now
   * holds.
   */
  public static PromptOutcome unchanged(
      Path file,
      Path newPrompt,
      PromptVersion latest,
      Path versionFile,
      PromptVersion original,
      String oldSha256,
      String coreSha256,
      LineEnding lineEnding) {
    return new PromptOutcome(
        PromptStatus.UNCHANGED,
        file,
        null,
        null,
        newPrompt,
        latest.number(),
        versionFile,
        original.number(),
        oldSha256,
        latest.sha256(),
        coreSha256,
        lineEnding,
        "same bytes as the latest kept version "
            + latest.number()
            + "; no new version kept, "
            + newPrompt
            + " holds it");
  }

  /** The patch was refused; nothing was written. */
  public static PromptOutcome refused(
      Path file,
      PromptRefusedException e,
      String oldSha256,
      String newSha256,
      String coreSha256,
      LineEnding lineEnding) {
    return new PromptOutcome(
        PromptStatus.REFUSED,
        file,
        e.reason(),
        e.getMessage(),
        null,
        0,
        null,
        0,
        oldSha256,
        newSha256,
        coreSha256,
        lineEnding,
        "prompt patch refused (" + e.reason().code() + "); nothing written");
  }

  /** True when the patch was refused: the pass goes on and finishes degraded (exit 1). */
  public boolean isRefused() {
    return status == PromptStatus.REFUSED;
  }

  /** One line for people, for the pass's summary or stderr. */
  public String summary() {
    return "prompt: " + status.code() + ": " + (isRefused() ? reason : note);
  }

  /**
   * The {@code prompt} section of {@code report.json}: {@code status}, {@code file} and {@code
   * note} always; {@code refusal} and {@code reason} when refused; the other fields when known
   * ({@code new_prompt}, {@code version}, {@code version_file}, {@code original_version}, {@code
   * sha256_old}, {@code sha256_new}, {@code core_sha256}, {@code line_ending}).
   */
  public ObjectNode toJson() {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("status", status.code());
    n.put("file", file.toString());
    if (refusal != null) {
      n.put("refusal", refusal.code());
      n.put("reason", reason);
    }
    if (newPrompt != null) {
      n.put("new_prompt", newPrompt.toString());
    }
    if (version > 0) {
      n.put("version", version);
    }
    if (versionFile != null) {
      n.put("version_file", versionFile.toString());
    }
    if (originalVersion > 0) {
      n.put("original_version", originalVersion);
    }
    putIfKnown(n, "sha256_old", oldSha256);
    putIfKnown(n, "sha256_new", newSha256);
    putIfKnown(n, "core_sha256", coreSha256);
    if (lineEnding != null) {
      n.put("line_ending", lineEnding.name());
    }
    n.put("note", note);
    return n;
  }

  private static void putIfKnown(ObjectNode n, String field, String value) {
    if (value != null) {
      n.put(field, value);
    }
  }
}
