package dev.vigil.orchestrate;

import dev.vigil.adapt.code.CodeOutcome;
import dev.vigil.adapt.code.ForeignDiff;
import dev.vigil.adapt.prompt.PromptOutcome;
import dev.vigil.diagnose.Alarm;
import dev.vigil.diagnose.AlarmFunction;
import dev.vigil.diagnose.Diagnosis;
import dev.vigil.diagnose.ReflectionNote;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.emobank.EmoBank;
import dev.vigil.emobank.Snapshot;
import dev.vigil.learn.ModelAlarm;
import dev.vigil.learn.SessionModel;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * One pass in progress, as its driver sees it: the deterministic walk or the LLM's tools. Every
 * step goes through the {@link StageMachine} (out of order: {@link StageOrderException}), hands the
 * records the earlier stages made to its {@link Stages stage}, and runs under a guard
 * (docs/STAGES.md#self-repair): a step that throws becomes an {@link InternalThorn}, the pass falls
 * back (a provisional diagnosis from the last snapshot; a failed prompt or code stage is reported
 * as failed) and moves on, so that the remaining stages run. Confined to the thread of the pass.
 */
public final class PassSession {
  private static final String DEFAULT_MODEL = "llm";

  private final Stages stages;
  private final PassContext pass;
  private final Window window;
  private final LastSnapshot last;
  private final StageMachine machine = new StageMachine();
  private final List<InternalThorn> thorns = new ArrayList<>();

  private EmoBank bank;
  private List<Detection> detections = List.of();
  private Sweep sweep;
  private BankUpdate update;
  private Snapshot fallbackSnapshot;
  private Diagnosis diagnosis;
  private PromptOutcome prompt;
  private CodeOutcome code;
  private OfferedDiff llmDiff;
  private String llmNote;
  private String llmModel = DEFAULT_MODEL;
  private LlmRun llm;
  private String fallback;

  PassSession(Stages stages, PassContext pass, Window window, LastSnapshot last) {
    this.stages = stages;
    this.pass = pass;
    this.window = window;
    this.last = last;
  }

  /** The stage the pass is at. */
  public Stage stage() {
    return machine.current();
  }

  /** The pass's options. */
  public PassOptions options() {
    return pass.options();
  }

  /**
   * Runs one step under its guard.
   *
   * @return what the step did, in one line; or, when it failed, the internal thorn and the fallback
   *     taken
   * @throws StageOrderException when the step is out of order; nothing is run then
   */
  public String run(Step step) {
    machine.check(step);
    if (step == Step.EMIT_UNIFIED_DIFF) {
      throw new IllegalArgumentException("emit_unified_diff takes the diff: use offerDiff");
    }
    String done;
    try {
      done = perform(step);
    } catch (Exception | LinkageError e) {
      PassCancelled.rethrowIfCancelled(e);
      InternalThorn thorn = InternalThorn.of(step, e);
      thorns.add(thorn);
      done =
          step.tool()
              + " failed: "
              + thorn.type()
              + " ("
              + thorn.message()
              + "); "
              + fallBack(step);
    }
    machine.complete(step);
    return done;
  }

  private String perform(Step step) throws IOException {
    PassOptions o = pass.options();
    return switch (step) {
      case UPDATE_EB_FROM_LOGS -> {
        bank = o.liveBank() ? EmoBank.openCommitted(o.emobank()) : EmoBank.open(o.emobank());
        update = stages.bank().update(pass, window, bank);
        sweep = update.sweep();
        detections = sweep.detections();
        yield "deposited "
            + update.deposited()
            + " new events ("
            + update.alreadyDeposited()
            + " already), "
            + update.derivedEvents()
            + " derived; mood "
            + update.snapshot().mood();
      }
      case DIAGNOSE_RBT -> {
        if (update == null) {
          yield fallBack(step);
        }
        diagnosis = stages.diagnose().diagnose(pass, update, detections);
        bank.writeState(BankState.of(update.snapshot(), o.now(), diagnosis.topThorns()));
        yield diagnosis.roses().size()
            + " roses, "
            + diagnosis.buds().size()
            + " buds, "
            + diagnosis.thorns().size()
            + " thorns"
            + (diagnosis.topThorns().isEmpty()
                ? ""
                : "; top thorn " + diagnosis.topThorns().get(0).cause());
      }
      case BUILD_PROMPT_PATCH -> {
        String note =
            llmNote != null ? llmNote : ReflectionNote.of(snapshot(), diagnosis, detections);
        prompt = stages.prompt().adapt(pass, diagnosis, note);
        yield prompt == null ? "no --prompt given: nothing to adapt" : prompt.summary();
      }
      case SAVE_PROPOSAL -> {
        OfferedDiff offered =
            llmDiff == null
                ? null
                : new OfferedDiff(llmDiff.diff(), llmDiff.files(), llmDiff.checks(), llmModel);
        code = stages.code().propose(pass, diagnosis, detections, offered);
        yield "code stage "
            + code.status().label()
            + ": "
            + code.written().size()
            + " proposal(s) written";
      }
      case EMIT_UNIFIED_DIFF ->
          throw new IllegalStateException("emit_unified_diff is not a stage of its own");
    };
  }

  /** What the pass does instead of a failed step; returns it in words. */
  private String fallBack(Step step) {
    switch (step) {
      case UPDATE_EB_FROM_LOGS, DIAGNOSE_RBT -> {
        if (update == null) {
          fallbackSnapshot = last.snapshot();
          readWithoutBank();
        }
        diagnosis = last.provisionalDiagnosis(detections);
        fallback = "provisional diagnosis from the last snapshot (" + last.source() + ")";
        return step == Step.UPDATE_EB_FROM_LOGS
            ? "the snapshot is the last one kept: " + last.source()
            : fallback;
      }
      case BUILD_PROMPT_PATCH -> {
        prompt = null;
        return "the prompt stage is reported failed; no new prompt";
      }
      case SAVE_PROPOSAL -> {
        code = CodeOutcome.skipped("the code stage failed: see internal_thorns");
        return "no code proposals this pass";
      }
      default -> {
        return "";
      }
    }
  }

  /**
   * The bank could not be updated: the window is read by the detectors alone (when that fails too,
   * nothing).
   */
  private void readWithoutBank() {
    if (sweep != null) {
      return;
    }
    try {
      sweep =
          Sweep.of(
              window,
              pass.options().detectors(),
              (detector, derived) -> {},
              w -> {},
              Sweep.scorer(pass.options().rules()));
    } catch (RuntimeException | LinkageError e) {
      PassCancelled.rethrowIfCancelled(e);
      thorns.add(InternalThorn.of(Step.UPDATE_EB_FROM_LOGS, e));
      sweep = Sweep.none();
    }
    detections = sweep.detections();
  }

  /**
   * {@code emit_unified_diff(diff)}: checks a diff the LLM wrote; an accepted one is kept for
   * {@code save_proposal} (a later accepted diff replaces it).
   *
   * @throws StageOrderException unless the pass is at {@code prompt_done}
   */
  public ForeignDiff.Verdict offerDiff(String diff) throws IOException {
    machine.check(Step.EMIT_UNIFIED_DIFF);
    PassOptions o = pass.options();
    ForeignDiff.Verdict v = new ForeignDiff(o.codeSettings()).check(o.repo(), diff);
    if (v.accepted()) {
      llmDiff = new OfferedDiff(diff, v.files(), v.checks(), llmModel);
    }
    return v;
  }

  /** Walks the remaining stages in order, each under its guard: the deterministic path. */
  public List<String> finish() {
    List<String> done = new ArrayList<>();
    for (Step step :
        List.of(
            Step.UPDATE_EB_FROM_LOGS,
            Step.DIAGNOSE_RBT,
            Step.BUILD_PROMPT_PATCH,
            Step.SAVE_PROPOSAL)) {
      if (machine.current() == step.from()) {
        done.add(step.tool() + ": " + run(step));
      }
    }
    return done;
  }

  /** What the detectors found (empty before {@code update_eb_from_logs}). */
  public List<Detection> detections() {
    return detections;
  }

  /** The diagnosis so far, or null before {@code diagnose_rbt}. */
  public Diagnosis diagnosis() {
    return diagnosis;
  }

  /** The snapshot so far (the last one kept when the bank could not be updated), or null before. */
  public Snapshot snapshot() {
    return update != null ? update.snapshot() : fallbackSnapshot;
  }

  /**
   * The LLM's own reflection for the adaptive section; it goes through the prompt guard like any
   * content.
   */
  public void reflection(String note) {
    llmNote = note;
  }

  /** Records what the LLM did, for the report. */
  public void llm(LlmRun run) {
    llm = run;
    llmModel = run.model();
  }

  /** The internal thorns recorded so far. */
  public List<InternalThorn> internalThorns() {
    return List.copyOf(thorns);
  }

  /** Closes the bank, if the pass opened it. */
  void close() {
    if (bank != null) {
      bank.close();
    }
  }

  /**
   * What the pass found and did; {@code resolved}: internal thorns of earlier passes that did not
   * recur.
   */
  PassResult result(List<InternalThorn> resolved) {
    BankUpdate b =
        update != null
            ? update
            : BankUpdate.none(
                fallbackSnapshot != null ? fallbackSnapshot : Snapshot.empty(),
                bank == null ? 0 : bank.rowsAppended(),
                sweep != null ? sweep : Sweep.none());
    Alarm alarm =
        AlarmFunction.of(
            b.sweep().events(),
            b.sweep().failedCalls(),
            detections,
            pass.options().rules().alarm());
    SessionModel model = pass.options().rules().model();
    if (model != null && b.sweep().events() > 0) {
      alarm = ModelAlarm.of(b.sweep().risks(), alarm, model.levels());
    }
    return new PassResult(
        pass.options(),
        machine.current().label(),
        window,
        detections,
        b,
        diagnosis,
        alarm,
        prompt,
        code == null ? CodeOutcome.skipped("the code stage did not run") : code,
        new SelfRepair(List.copyOf(thorns), List.copyOf(resolved), fallback),
        llm);
  }
}
