package dev.vigil.orchestrate;

/**
 * The steps that move a pass from stage to stage, named as the paper's tools. Each step may run
 * only at its {@link #from()} stage and leaves the pass at its {@link #to()} stage; {@link
 * #EMIT_UNIFIED_DIFF} offers a diff and stays at {@code prompt_done}.
 */
public enum Step {
  /** Ingest the window, run the detectors, appraise and deposit into the EmoBank. */
  UPDATE_EB_FROM_LOGS("update_eb_from_logs", Stage.START, Stage.EB_UPDATED),
  /** Snapshot and Roses/Buds/Thorns. */
  DIAGNOSE_RBT("diagnose_rbt", Stage.EB_UPDATED, Stage.DIAGNOSED),
  /** Rewrite the prompt's adaptive section through the prompt guard. */
  BUILD_PROMPT_PATCH("build_prompt_patch", Stage.DIAGNOSED, Stage.PROMPT_DONE),
  /**
   * Offer a unified diff (the LLM's); it is checked and kept for {@link #SAVE_PROPOSAL}, or
   * rejected.
   */
  EMIT_UNIFIED_DIFF("emit_unified_diff", Stage.PROMPT_DONE, Stage.PROMPT_DONE),
  /** Run the code stage and save the proposals, the LLM's accepted diff among them. */
  SAVE_PROPOSAL("save_proposal", Stage.PROMPT_DONE, Stage.DIFF_DONE);

  private final String tool;
  private final Stage from;
  private final Stage to;

  Step(String tool, Stage from, Stage to) {
    this.tool = tool;
    this.from = from;
    this.to = to;
  }

  /** The tool's name, as the paper and the LLM call it. */
  public String tool() {
    return tool;
  }

  /** The stage the pass must be at. */
  public Stage from() {
    return from;
  }

  /** The stage the pass is at afterwards. */
  public Stage to() {
    return to;
  }
}
