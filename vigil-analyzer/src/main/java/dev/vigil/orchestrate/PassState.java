package dev.vigil.orchestrate;

import dev.vigil.adapt.code.CodeOutcome;
import dev.vigil.adapt.prompt.PromptOutcome;
import dev.vigil.appraise.Appraiser;
import dev.vigil.diagnose.Diagnosis;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.diagnose.detect.WindowEvent;
import dev.vigil.emobank.EmoBank;
import dev.vigil.emobank.Snapshot;
import dev.vigil.ingest.IngestStats;
import dev.vigil.ingest.QueueSource;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * What a pass has read and made so far, handed from stage to stage ({@link Stages}). Mutable, and confined to the
 * thread that runs the pass.
 */
public final class PassState {
  final PassOptions options;
  final Clock clock;
  final Appraiser appraiser;
  final StageMachine machine = new StageMachine();
  final List<InternalThorn> thorns = new ArrayList<>();

  // ingest
  IngestStats stats = new IngestStats();
  QueueSource queue;
  long eventsInWindow;
  /** A pass of {@code watch}: derived deposits left to the tail. */
  final List<EmoBank.PendingDeposit> pendingDeposits = new ArrayList<>();
  List<WindowEvent> window = List.of();

  // update_eb_from_logs
  List<Detection> detections = List.of();
  long derivedEvents;
  long derivedDeposited;
  long deposited;
  long alreadyDeposited;
  EmoBank bank;
  Snapshot snapshot;
  LastSnapshot last;
  String fallback;

  // diagnose_rbt, build_prompt_patch, save_proposal
  Diagnosis diagnosis;
  PromptOutcome prompt;
  CodeOutcome code;
  CheckedDiff llmDiff;
  String llmModel = "llm";
  String llmNote;
  LlmRun llm;

  PassState(PassOptions options, Clock clock) {
    this.options = options;
    this.clock = clock;
    this.appraiser = options.rules().appraisal().newAppraiser();
  }

  /** The pass's options. */
  public PassOptions options() {
    return options;
  }

  /** The stage the pass is at. */
  public Stage stage() {
    return machine.current();
  }

  /** The diagnosis so far, or null before {@code diagnose_rbt}. */
  public Diagnosis diagnosis() {
    return diagnosis;
  }

  /** Records what the LLM did, for the report. */
  public void llm(LlmRun run) {
    this.llm = run;
    this.llmModel = run.model();
  }

  /** The internal thorns recorded so far. */
  public List<InternalThorn> internalThorns() {
    return List.copyOf(thorns);
  }
}
