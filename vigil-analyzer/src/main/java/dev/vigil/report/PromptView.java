package dev.vigil.report;

import dev.vigil.adapt.prompt.PromptOutcome;
import dev.vigil.adapt.prompt.PromptVersion;
import dev.vigil.adapt.prompt.PromptVersions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The prompt patch as {@code report.html} shows it: the adaptive section before and after (the
 * lines between {@code ## BEGIN_ADAPTIVE_SECTION} and {@code ## END_ADAPTIVE_SECTION}, read from
 * the kept versions under {@code OUT/prompts/}) and the diff between them.
 *
 * @param status the prompt stage's status: written, unchanged, refused, failed or skipped
 * @param note what it did, in words (the refusal's reason when refused)
 * @param before the adaptive section as read, or empty
 * @param after the adaptive section written, or empty
 * @param diff the diff between them, empty when they are the same or unknown
 * @param problem why the sections could not be shown, or empty
 */
record PromptView(
    String status,
    String note,
    String before,
    String after,
    List<DiffLines.Line> diff,
    String problem) {
  private static final String BEGIN = "## BEGIN_ADAPTIVE_SECTION";
  private static final String END = "## END_ADAPTIVE_SECTION";

  /** The view of a pass without a prompt, or whose prompt stage failed. */
  static PromptView absent(String status, String note) {
    return new PromptView(status, note, "", "", List.of(), "");
  }

  /** The view of the prompt stage's outcome, its versions read from {@code out}. */
  static PromptView of(PromptOutcome o, Path out) {
    if (o.isRefused()) {
      return new PromptView(o.status().code(), o.reason(), "", "", List.of(), "");
    }
    try {
      PromptVersions versions = PromptVersions.open(out);
      String before = "";
      for (PromptVersion v : versions.versions()) {
        if (v.number() == o.originalVersion()) {
          before = new String(versions.read(v), StandardCharsets.UTF_8);
        }
      }
      String after =
          new String(
              Files.readAllBytes(o.versionFile() != null ? o.versionFile() : o.newPrompt()),
              StandardCharsets.UTF_8);
      List<String> old = adaptive(before);
      List<String> now = adaptive(after);
      List<DiffLines.Line> diff =
          old.equals(now)
              ? List.of()
              : DiffLines.between(
                  "adaptive section, version " + o.originalVersion(),
                  old,
                  "adaptive section, version " + o.version(),
                  now);
      return new PromptView(
          o.status().code(), o.note(), String.join("\n", old), String.join("\n", now), diff, "");
    } catch (IOException | RuntimeException e) {
      return new PromptView(
          o.status().code(),
          o.note(),
          "",
          "",
          List.of(),
          "the kept versions could not be read: " + e.getMessage());
    }
  }

  /** The lines inside the adaptive section's markers; none when the text has no such section. */
  static List<String> adaptive(String prompt) {
    List<String> lines = new ArrayList<>();
    boolean inside = false;
    for (String line : prompt.replace("\uFEFF", "").split("\r\n|\r|\n", -1)) {
      String marker = line.strip();
      if (marker.equals(BEGIN)) {
        inside = true;
      } else if (marker.equals(END)) {
        return lines;
      } else if (inside) {
        lines.add(line);
      }
    }
    return List.of();
  }
}
