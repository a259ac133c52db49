package dev.vigil.orchestrate;

/**
 * A step was asked for out of order; the message names the step, the expected and the actual stage.
 */
public final class StageOrderException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  private final Step step;
  private final Stage actual;

  /**
   * An exception for a step asked for at the wrong stage.
   *
   * @param step the step asked for
   * @param actual the stage the pass is at
   */
  public StageOrderException(Step step, Stage actual) {
    super(
        step.tool()
            + " is out of order: it needs stage "
            + step.from()
            + ", but the pass is at stage "
            + actual
            + (actual.compareTo(step.from()) < 0
                ? "; call " + firstStepFrom(actual).tool() + " first"
                : ""));
    this.step = step;
    this.actual = actual;
  }

  private static Step firstStepFrom(Stage stage) {
    for (Step s : Step.values()) {
      if (s.from() == stage) {
        return s;
      }
    }
    throw new IllegalArgumentException("no step starts at " + stage);
  }

  /** The step asked for. */
  public Step step() {
    return step;
  }

  /** The stage the step needs. */
  public Stage expected() {
    return step.from();
  }

  /** The stage the pass was at. */
  public Stage actual() {
    return actual;
  }
}
