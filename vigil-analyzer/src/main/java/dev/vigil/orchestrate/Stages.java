package dev.vigil.orchestrate;

import dev.vigil.adapt.code.CodeProposals;
import dev.vigil.adapt.code.Strategy;
import java.util.List;

/**
 * The work of each stage of a pass (docs/STAGES.md), one one-method interface a stage, handing
 * immutable records to the next: {@link Window} → {@link BankUpdate} → {@link
 * dev.vigil.diagnose.Diagnosis} → {@link dev.vigil.adapt.prompt.PromptOutcome} → {@link
 * dev.vigil.adapt.code.CodeOutcome}. {@link PassSession} runs them in order under the guard of
 * self-repair; a test swaps one with a lambda: {@code Stages.defaults().withDiagnose((pass, update,
 * detections) -> { throw new ClassCastException(); })}.
 *
 * @param bank {@code update_eb_from_logs}
 * @param diagnose {@code diagnose_rbt}
 * @param prompt {@code build_prompt_patch}
 * @param code {@code save_proposal}
 */
public record Stages(BankStage bank, DiagnoseStage diagnose, PromptStage prompt, CodeStage code) {
  /** Vigil's own stages with the built-in code strategies. */
  public static Stages defaults() {
    return withStrategies(CodeProposals.defaultStrategies());
  }

  /**
   * Vigil's own stages; the code stage runs these strategies, in the order that breaks ties of
   * score.
   */
  public static Stages withStrategies(List<Strategy> strategies) {
    return new Stages(
        new DepositStage(), new RbtStage(), new PromptPatchStage(), new ProposalStage(strategies));
  }

  /** These stages with another {@code update_eb_from_logs}. */
  public Stages withBank(BankStage other) {
    return new Stages(other, diagnose, prompt, code);
  }

  /** These stages with another {@code diagnose_rbt}. */
  public Stages withDiagnose(DiagnoseStage other) {
    return new Stages(bank, other, prompt, code);
  }

  /** These stages with another {@code build_prompt_patch}. */
  public Stages withPrompt(PromptStage other) {
    return new Stages(bank, diagnose, other, code);
  }

  /** These stages with another {@code save_proposal}. */
  public Stages withCode(CodeStage other) {
    return new Stages(bank, diagnose, prompt, other);
  }
}
