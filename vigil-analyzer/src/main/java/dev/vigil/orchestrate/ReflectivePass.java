package dev.vigil.orchestrate;

import java.io.IOException;
import java.time.Clock;
import java.util.List;

/**
 * One reflective pass (the paper's section 2.2, docs/STAGES.md): take the window, then walk the
 * stages {@code start → eb_updated → diagnosed → prompt_done → diff_done} through a {@link
 * PassSession}, each step under the guard of self-repair (docs/STAGES.md#self-repair). A {@link
 * PassDriver} walks them (the deterministic walk, or an LLM); whatever it leaves undone is finished
 * deterministically. Users run passes through {@code dev.vigil.api.Analyzer}.
 */
public final class ReflectivePass {
  private final Clock clock;
  private final Stages stages;

  /**
   * @param clock the pass's time source
   * @param stages the work of each stage (a test may swap one)
   */
  public ReflectivePass(Clock clock, Stages stages) {
    this.clock = clock;
    this.stages = stages;
  }

  /**
   * Runs the pass over {@code input}'s share for the agent {@code o} names (the whole input when it
   * names none): lets {@code driver} walk the stages, finishes what it left, and records the
   * internal thorns (those of earlier passes that did not recur are reported resolved).
   *
   * @param passNumber this pass's number in {@code o.out()}
   */
  public PassResult run(PassOptions o, PassDriver driver, PassInput input, long passNumber)
      throws IOException {
    LastSnapshot last =
        LastSnapshot.read(o.emobank()); // as the last pass left it: this pass may replace it
    PassSession session =
        new PassSession(
            stages, new PassContext(o, clock, passNumber), input.window(o.agent()), last);
    try {
      driver.drive(session);
      session.finish();
    } finally {
      session.close();
    }
    List<InternalThorn> resolved = OpenInternalThorns.update(o.out(), session.internalThorns());
    return session.result(resolved);
  }
}
