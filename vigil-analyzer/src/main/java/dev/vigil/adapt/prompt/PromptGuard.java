package dev.vigil.adapt.prompt;

import java.util.Arrays;

/**
 * The prompt guard (docs/ADAPTATION.md#prompt-adaptation), run on the final bytes before anything
 * is written: the patched prompt must parse to one core block and one adaptive section; the core
 * block, markers included, must be byte-identical to the original's; every byte up to the end of
 * the {@code ## BEGIN_ADAPTIVE_SECTION} line and from the start of the {@code ##
 * END_ADAPTIVE_SECTION} line on must be identical too (line endings included); and the adaptive
 * section must hold exactly the new content, whose every line ends with the file's line ending.
 */
final class PromptGuard {
  private PromptGuard() {}

  /**
   * Verifies a patched prompt against its original.
   *
   * @param name how messages name the prompt
   * @param original the original bytes
   * @param before the original's layout
   * @param patched the bytes that would be written
   * @param content the adaptive content that was meant to go in
   * @return the patched prompt's layout
   * @throws PromptRefusedException with {@link RefusalReason#GUARD_FAILED} naming the first check
   *     that failed
   */
  public static PromptLayout verify(
      String name, byte[] original, PromptLayout before, byte[] patched, byte[] content)
      throws PromptRefusedException {
    PromptLayout after;
    try {
      after = PromptLayout.parse(name, patched);
    } catch (PromptRefusedException e) {
      throw refused(name, "the patched prompt no longer parses (" + e.getMessage() + ")");
    }
    if (!Arrays.equals(
        original,
        before.coreStart(),
        before.coreEnd(),
        patched,
        after.coreStart(),
        after.coreEnd())) {
      throw refused(
          name,
          "the core block would change (original lines "
              + before.coreBeginLine()
              + "-"
              + before.coreEndLine()
              + ")");
    }
    int prefix = before.adaptiveStart();
    if (after.adaptiveStart() != prefix
        || !Arrays.equals(original, 0, prefix, patched, 0, prefix)) {
      throw refused(
          name,
          "a byte before the adaptive section's content would change"
              + firstDifference(original, patched, prefix));
    }
    int suffix = original.length - before.adaptiveEnd();
    if (patched.length - after.adaptiveEnd() != suffix
        || !Arrays.equals(
            original,
            before.adaptiveEnd(),
            original.length,
            patched,
            after.adaptiveEnd(),
            patched.length)) {
      throw refused(name, "a byte after the adaptive section's content would change");
    }
    if (!Arrays.equals(
        patched, after.adaptiveStart(), after.adaptiveEnd(), content, 0, content.length)) {
      throw refused(name, "the adaptive section would not hold the new content");
    }
    for (Line line : Line.split(content)) {
      if (line.ending(content) != before.lineEnding()) {
        throw refused(
            name,
            "line "
                + line.number()
                + " of the new content does not end with the file's "
                + before.lineEnding()
                + " line ending");
      }
    }
    return after;
  }

  private static String firstDifference(byte[] a, byte[] b, int limit) {
    int n = Math.min(limit, Math.min(a.length, b.length));
    int i = Arrays.mismatch(Arrays.copyOf(a, n), Arrays.copyOf(b, n));
    return i < 0 ? "" : " (first difference at offset " + i + ")";
  }

  private static PromptRefusedException refused(String name, String what) {
    return new PromptRefusedException(
        RefusalReason.GUARD_FAILED,
        "prompt "
            + name
            + ": guard failed, "
            + what
            + "; the patch was refused and nothing was written");
  }
}
