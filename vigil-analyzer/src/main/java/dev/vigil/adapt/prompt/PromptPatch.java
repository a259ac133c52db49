package dev.vigil.adapt.prompt;

import java.util.Arrays;

/**
 * A prompt with its adaptive section's content replaced, checked by {@link PromptGuard}
 * (docs/ADAPTATION.md#prompt-adaptation). Pure: reads and writes no file.
 *
 * @param original the prompt as read
 * @param patched the prompt with the new adaptive content
 * @param before the original's layout
 * @param after the patched prompt's layout
 * @param content the new adaptive content's bytes, in the file's line ending
 */
// arrays on purpose: the bytes as read and written; equals and hashCode below compare their
// contents
@SuppressWarnings("ArrayRecordComponent")
record PromptPatch(
    byte[] original, byte[] patched, PromptLayout before, PromptLayout after, byte[] content) {

  /**
   * Replaces the adaptive section's content of {@code original} with {@code content}.
   *
   * @param name how messages name the prompt
   * @throws PromptRefusedException when the original has no valid layout or the guard rejects the
   *     result
   */
  public static PromptPatch build(String name, byte[] original, AdaptiveContent content)
      throws PromptRefusedException {
    PromptLayout before = PromptLayout.parse(name, original);
    byte[] rendered = content.render(before.lineEnding());
    int tail = original.length - before.adaptiveEnd();
    byte[] patched = new byte[before.adaptiveStart() + rendered.length + tail];
    System.arraycopy(original, 0, patched, 0, before.adaptiveStart());
    System.arraycopy(rendered, 0, patched, before.adaptiveStart(), rendered.length);
    System.arraycopy(
        original, before.adaptiveEnd(), patched, before.adaptiveStart() + rendered.length, tail);
    PromptLayout after = PromptGuard.verify(name, original, before, patched, rendered);
    return new PromptPatch(original, patched, before, after, rendered);
  }

  /** True when the patch changes nothing: the adaptive section already held this content. */
  public boolean unchanged() {
    return Arrays.equals(original, patched);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PromptPatch p
        && Arrays.equals(original, p.original)
        && Arrays.equals(patched, p.patched)
        && before.equals(p.before)
        && after.equals(p.after)
        && Arrays.equals(content, p.content);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(original) + Arrays.hashCode(patched);
  }

  @Override
  public String toString() {
    return "PromptPatch[" + original.length + " -> " + patched.length + " bytes, " + before + "]";
  }
}
