package dev.vigil.adapt.prompt;

import java.util.Locale;

/**
 * What the prompt stage did; {@link #code()} is the value of {@code prompt.status} in {@code
 * report.json}.
 */
public enum PromptStatus {
  /** A new version was kept and written as {@code OUT/new_prompt.txt}. */
  WRITTEN,
  /**
   * The new prompt has the same bytes as the latest kept version: no new version, {@code
   * new_prompt.txt} holds it.
   */
  UNCHANGED,
  /** The patch was refused; nothing was written. */
  REFUSED;

  /** The status in lower case, e.g. {@code written}. */
  public String code() {
    return name().toLowerCase(Locale.ROOT);
  }
}
