package dev.vigil.orchestrate;

/**
 * The pass's stage gate (docs/STAGES.md): the one place that knows which step may run now. Both the
 * deterministic walk and the LLM's tools go through it, so that neither can skip a stage.
 */
final class StageMachine {
  private Stage current = Stage.START;

  /** The stage the pass is at. */
  public Stage current() {
    return current;
  }

  /**
   * Checks that {@code step} may run now.
   *
   * @throws StageOrderException naming the step, the expected and the actual stage
   */
  public void check(Step step) {
    if (current != step.from()) {
      throw new StageOrderException(step, current);
    }
  }

  /** Moves past {@code step}, which must have been allowed by {@link #check}. */
  public void complete(Step step) {
    check(step);
    current = step.to();
  }

  /** True once the pass is at {@code diff_done}. */
  public boolean finished() {
    return current == Stage.DIFF_DONE;
  }
}
