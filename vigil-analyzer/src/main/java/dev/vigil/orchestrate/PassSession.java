package dev.vigil.orchestrate;

import dev.vigil.adapt.code.CodeOutcome;
import dev.vigil.adapt.code.ForeignDiff;
import dev.vigil.diagnose.Diagnosis;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.emobank.Snapshot;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * One pass in progress, as its driver sees it: the deterministic walk or the LLM's tools. Every step goes through
 * the {@link StageMachine} (out of order: {@link StageOrderException}) and runs under a guard (SPEC section 4.9):
 * a step that throws becomes an {@link InternalThorn}, the pass falls back (a provisional diagnosis from the last
 * snapshot; a failed prompt or code stage is reported as failed) and moves on, so that the remaining stages run.
 */
public final class PassSession {
  private final Stages stages;
  private final PassState state;

  PassSession(Stages stages, PassState state) {
    this.stages = stages;
    this.state = state;
  }

  /** The stage the pass is at. */
  public Stage stage() {
    return state.machine.current();
  }

  /** The pass's state so far. */
  public PassState state() {
    return state;
  }

  /**
   * Runs one step under its guard.
   *
   * @return what the step did, in one line; or, when it failed, the internal thorn and the fallback taken
   * @throws StageOrderException when the step is out of order; nothing is run then
   */
  public String run(Step step) {
    state.machine.check(step);
    if (step == Step.EMIT_UNIFIED_DIFF) {
      throw new IllegalArgumentException("emit_unified_diff takes the diff: use offerDiff");
    }
    String done;
    try {
      done = perform(step);
    } catch (Exception | LinkageError e) {
      InternalThorn thorn = InternalThorn.of(step, e);
      state.thorns.add(thorn);
      done = step.tool() + " failed: " + thorn.type() + " (" + thorn.message() + "); " + fallBack(step);
    }
    state.machine.complete(step);
    return done;
  }

  private String perform(Step step) throws IOException {
    return switch (step) {
      case UPDATE_EB_FROM_LOGS -> {
        stages.updateEmoBank(state);
        yield "deposited " + state.deposited + " new events (" + state.alreadyDeposited + " already), "
            + state.derivedEvents + " derived; mood " + state.snapshot.mood();
      }
      case DIAGNOSE_RBT -> {
        if (state.bank == null) {
          yield fallBack(step);
        }
        stages.diagnose(state);
        Diagnosis d = state.diagnosis;
        yield d.roses().size() + " roses, " + d.buds().size() + " buds, " + d.thorns().size() + " thorns"
            + (d.topThorns().isEmpty() ? "" : "; top thorn " + d.topThorns().get(0).cause());
      }
      case BUILD_PROMPT_PATCH -> {
        stages.buildPromptPatch(state);
        yield state.prompt == null ? "no --prompt given: nothing to adapt" : state.prompt.summary();
      }
      case SAVE_PROPOSAL -> {
        stages.saveProposal(state);
        yield "code stage " + state.code.status().label() + ": " + state.code.written().size() + " proposal(s) written";
      }
      case EMIT_UNIFIED_DIFF -> throw new IllegalStateException("emit_unified_diff is not a stage of its own");
    };
  }

  /** What the pass does instead of a failed step; returns it in words. */
  private String fallBack(Step step) {
    switch (step) {
      case UPDATE_EB_FROM_LOGS, DIAGNOSE_RBT -> {
        LastSnapshot last = state.last;
        if (state.snapshot == null) {
          state.snapshot = last.snapshot();
        }
        state.diagnosis = last.provisionalDiagnosis(state.detections);
        state.fallback = "provisional diagnosis from the last snapshot (" + last.source() + ")";
        return step == Step.UPDATE_EB_FROM_LOGS ? "the snapshot is the last one kept: " + last.source()
            : state.fallback;
      }
      case BUILD_PROMPT_PATCH -> {
        state.prompt = null;
        return "the prompt stage is reported failed; no new prompt";
      }
      case SAVE_PROPOSAL -> {
        state.code = CodeOutcome.skipped("the code stage failed: see internal_thorns");
        return "no code proposals this pass";
      }
      default -> {
        return "";
      }
    }
  }

  /**
   * {@code emit_unified_diff(diff)}: checks a diff the LLM wrote; an accepted one is kept for {@code save_proposal}
   * (a later accepted diff replaces it).
   *
   * @throws StageOrderException unless the pass is at {@code prompt_done}
   */
  public ForeignDiff.Verdict offerDiff(String diff) throws IOException {
    state.machine.check(Step.EMIT_UNIFIED_DIFF);
    ForeignDiff.Verdict v = new ForeignDiff(state.options.codeSettings()).check(state.options.repo(), diff);
    if (v.accepted()) {
      state.llmDiff = new CheckedDiff(diff, v.files(), v.checks());
    }
    return v;
  }

  /** Walks the remaining stages in order, each under its guard: the deterministic path. */
  public List<String> finish() {
    List<String> done = new ArrayList<>();
    for (Step step : List.of(Step.UPDATE_EB_FROM_LOGS, Step.DIAGNOSE_RBT, Step.BUILD_PROMPT_PATCH,
        Step.SAVE_PROPOSAL)) {
      if (state.machine.current() == step.from()) {
        done.add(step.tool() + ": " + run(step));
      }
    }
    return done;
  }

  /** What the detectors found (empty before {@code update_eb_from_logs}). */
  public List<Detection> detections() {
    return state.detections;
  }

  /** The LLM's own reflection for the adaptive section; it goes through the prompt guard like any content. */
  public void reflection(String note) {
    state.llmNote = note;
  }

  /** The snapshot so far, or null before {@code update_eb_from_logs}. */
  public Snapshot snapshot() {
    return state.snapshot;
  }
}
