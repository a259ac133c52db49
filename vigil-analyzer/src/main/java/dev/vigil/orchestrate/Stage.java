package dev.vigil.orchestrate;

/**
 * The stages of a reflective pass, in order (docs/STAGES.md): {@code start → eb_updated → diagnosed
 * → prompt_done → diff_done}.
 */
public enum Stage {
  /** Nothing done yet. */
  START("start"),
  /** Events appraised and deposited into the EmoBank. */
  EB_UPDATED("eb_updated"),
  /** Roses, buds and thorns diagnosed. */
  DIAGNOSED("diagnosed"),
  /** The prompt stage has run (or had no prompt to adapt). */
  PROMPT_DONE("prompt_done"),
  /** The code stage has run (or had no repository to read). */
  DIFF_DONE("diff_done");

  private final String label;

  Stage(String label) {
    this.label = label;
  }

  /** The name reports and error messages use. */
  public String label() {
    return label;
  }

  @Override
  public String toString() {
    return label;
  }
}
