package dev.vigil.adapt.prompt;

import java.util.Locale;

/** Why a prompt patch was refused; {@link #code()} is the value in {@code report.json}. */
public enum RefusalReason {
  /** The prompt file is missing, a directory, or cannot be read. */
  PROMPT_UNREADABLE,
  /** The prompt file is larger than {@link PromptAdaptation#MAX_PROMPT_BYTES}. */
  PROMPT_TOO_LARGE,
  /** The prompt file is {@code OUT/new_prompt.txt} itself, which Vigil would overwrite. */
  PROMPT_IS_OUTPUT,
  /** The prompt file is not valid UTF-8. */
  NOT_UTF8,
  /** None of the four markers stands on a line of its own. */
  MARKERS_MISSING,
  /** No core block. */
  CORE_MISSING,
  /** A core marker appears more than once. */
  CORE_TWICE,
  /** A core marker without its partner, or the end before the beginning. */
  CORE_UNBALANCED,
  /** No adaptive section. */
  ADAPTIVE_MISSING,
  /** An adaptive marker appears more than once. */
  ADAPTIVE_TWICE,
  /** An adaptive marker without its partner, or the end before the beginning. */
  ADAPTIVE_UNBALANCED,
  /** The adaptive section and the core block overlap or nest. */
  SECTIONS_OVERLAP,
  /**
   * The patched bytes failed the guard: something outside the adaptive section would have changed.
   */
  GUARD_FAILED,
  /** {@code OUT/prompts/index.jsonl} cannot be read or holds a bad line. */
  VERSIONS_UNREADABLE,
  /** Writing into {@code OUT} failed. */
  OUT_UNWRITABLE;

  /** The reason in lower snake case, e.g. {@code core_twice}. */
  public String code() {
    return name().toLowerCase(Locale.ROOT);
  }
}
