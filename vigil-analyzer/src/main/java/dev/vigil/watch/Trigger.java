package dev.vigil.watch;

/** Why {@code watch} ran a pass. */
public enum Trigger {
  /** {@code --every}: the timer. */
  EVERY("every"),
  /** {@code --after-events}: N new events since the last pass. */
  AFTER_EVENTS("after-events"),
  /** {@code --on-thorns}: K thorn-grade appraisals within the duration. */
  ON_THORNS("on-thorns");

  private final String label;

  Trigger(String label) {
    this.label = label;
  }

  /** The option's name without dashes, as printed and reported. */
  public String label() {
    return label;
  }
}
