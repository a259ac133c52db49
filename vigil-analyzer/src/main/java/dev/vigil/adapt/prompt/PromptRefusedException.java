package dev.vigil.adapt.prompt;

/**
 * A prompt patch that must not be made. {@link PromptAdaptation#adapt} turns it into a refused
 * {@link PromptOutcome}; it never reaches the pass.
 */
final class PromptRefusedException extends Exception {
  private static final long serialVersionUID = 1L;

  private final RefusalReason reason;

  /** The message names the prompt file, what is wrong, and what to do. */
  public PromptRefusedException(RefusalReason reason, String message) {
    super(message);
    this.reason = reason;
  }

  /** Why the patch was refused. */
  public RefusalReason reason() {
    return reason;
  }
}
