package dev.vigil.orchestrate;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.adapt.code.CodeOutcome;
import dev.vigil.adapt.code.CodeProposals;
import dev.vigil.adapt.code.ForeignDiff;
import dev.vigil.adapt.code.Proposal;
import dev.vigil.adapt.prompt.AdaptiveContent;
import dev.vigil.adapt.prompt.PromptAdaptation;
import dev.vigil.appraise.Appraisal;
import dev.vigil.diagnose.RbtDiagnosis;
import dev.vigil.diagnose.ReflectionNote;
import dev.vigil.diagnose.ThornCause;
import dev.vigil.diagnose.detect.Derived;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.diagnose.detect.WindowEvent;
import dev.vigil.emobank.Decay;
import dev.vigil.emobank.EmoBank;
import dev.vigil.emobank.EmotionRow;
import dev.vigil.emobank.Snapshot;
import dev.vigil.ingest.EventIdentity;
import dev.vigil.observe.Event;
import dev.vigil.report.Artifacts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The work of each stage of a pass (SPEC sections 4.3 to 4.7), one method a step. {@link ReflectivePass} runs
 * them through the {@link StageMachine} under a guard; a test may swap one for a failing one by overriding it.
 */
public class Stages {
  private record Deposit(Instant ts, long order, long identity, Event event, boolean derived) {}

  private static final Comparator<Deposit> DEPOSIT_TIME =
      Comparator.comparing(Deposit::ts).thenComparingLong(Deposit::order);

  /**
   * {@code update_eb_from_logs}: runs the detectors over the window, appraises every event and derived event,
   * deposits into the EmoBank exactly once, takes the snapshot and commits the bank. A pass of {@code watch}
   * ({@link PassOptions#liveBank()}) reads the bank as last committed and leaves its deposits to the tail
   * ({@link PassResult#pendingDeposits()}).
   */
  public void updateEmoBank(PassState s) throws IOException {
    PassOptions o = s.options;
    s.detections = o.detectors().run(s.window);
    List<Deposit> deposits = new ArrayList<>(s.window.size());
    long order = 0;
    for (WindowEvent w : s.window) {
      deposits.add(new Deposit(w.event().ts(), order++, w.identity(), w.event(), false));
    }
    for (Detection d : s.detections) {
      for (Derived derived : d.derived()) {
        s.derivedEvents++;
        deposits.add(new Deposit(derived.event().ts(), order++,
            EventIdentity.ofDerived(d.name(), derived.sourceIdentity()), derived.event(), true));
      }
    }
    deposits.sort(DEPOSIT_TIME);
    EmoBank bank = o.liveBank() ? EmoBank.openCommitted(o.emobank()) : EmoBank.open(o.emobank());
    s.bank = bank;
    for (Deposit d : deposits) {
      if (bank.isDeposited(d.identity())) {
        s.alreadyDeposited += d.derived() ? 0 : 1;
        continue;
      }
      Appraisal a = s.appraiser.appraise(d.event());
      EmotionRow row = EmotionRow.of(d.ts(), a.emotion(), a.intensity(), a.valence(), a.cause());
      bank.deposit(d.identity(), row);
      if (o.liveBank()) {
        s.pendingDeposits.add(new EmoBank.PendingDeposit(d.identity(), row, d.derived()));
        continue; // the tail deposits them when the pass ends, unless it has by then
      }
      if (d.derived()) {
        s.derivedDeposited++;
      } else {
        s.deposited++;
      }
    }
    if (s.queue != null) {
      bank.queuePosition(s.queue.key(), s.queue.lastIndex());
    }
    s.snapshot = Snapshot.of(windowRows(s), new Decay(o.halfLife()), o.now());
    bank.commit(state(s), o.now().minus(o.retention()));
  }

  /**
   * {@code diagnose_rbt}: Roses/Buds/Thorns over the window's live rows, with the detectors' rules; the top
   * thorns are kept in the bank's {@code state.json} for a later pass's provisional diagnosis.
   */
  public void diagnose(PassState s) throws IOException {
    PassOptions o = s.options;
    s.diagnosis = new RbtDiagnosis(o.rules().rbt(), new Decay(o.halfLife()))
        .diagnose(windowRows(s), o.now(), s.detections);
    ObjectNode state = state(s);
    ArrayNode top = state.putArray("top_thorns");
    for (ThornCause t : s.diagnosis.topThorns()) {
      top.addObject().put("cause", t.cause()).put("intensity", t.intensity()).put("thorns", t.thorns());
    }
    s.bank.writeState(state);
  }

  /** {@code build_prompt_patch}: the prompt's adaptive section rewritten from the diagnosis, through the guard. */
  public void buildPromptPatch(PassState s) throws IOException {
    PassOptions o = s.options;
    if (o.prompt() == null) {
      return;
    }
    String note = s.llmNote != null ? s.llmNote : ReflectionNote.of(s.snapshot, s.diagnosis, s.detections);
    AdaptiveContent content = AdaptiveContent.of(s.diagnosis, note, o.now(), String.valueOf(passNumber(o.out())));
    s.prompt = PromptAdaptation.adapt(o.prompt(), content, o.out(), s.clock);
  }

  /**
   * {@code save_proposal}: the code stage's proposals (SPEC section 4.7) and, when the LLM offered a diff that
   * passed its checks, that diff as {@code LLM_patch_<ts>.diff} with {@code LLM_PR_<ts>.md}.
   */
  public void saveProposal(PassState s) throws IOException {
    PassOptions o = s.options;
    CodeOutcome code = new CodeProposals(CodeProposals.defaultStrategies(), o.codeSettings())
        .run(o.repo(), EvidenceOf.pass(s.diagnosis, s.detections), o.out(), o.now());
    if (s.llmDiff != null) {
      ForeignDiff foreign = new ForeignDiff(o.codeSettings());
      ForeignDiff.Verdict verdict = new ForeignDiff.Verdict(true, s.llmDiff.files(), s.llmDiff.checks(), null);
      List<String> why = new ArrayList<>();
      s.diagnosis.topThorns().forEach(t -> why.add("thorn `" + t.cause() + "`: " + t.thorns() + " thorns"));
      s.detections.stream().filter(Detection::fired).forEach(d -> why.add(d.summary()));
      Proposal llm = foreign.write(o.repo(), s.llmDiff.diff(), verdict, s.llmModel, why, o.out(), o.now());
      List<Proposal> proposals = new ArrayList<>(code.proposals());
      proposals.add(0, llm);
      List<String> notes = new ArrayList<>(code.notes());
      notes.add("llm: the model's diff passed its checks and was written to " + llm.diff());
      code = CodeOutcome.of(notes, proposals);
    }
    s.code = code;
  }

  /** The live rows inside the window, oldest first. */
  private static List<EmotionRow> windowRows(PassState s) {
    List<EmotionRow> rows = new ArrayList<>();
    for (EmotionRow row : s.bank.liveRows()) {
      if (s.options.inWindow(row.ts())) {
        rows.add(row);
      }
    }
    return rows;
  }

  private static ObjectNode state(PassState s) {
    ObjectNode state = s.snapshot.toJson();
    state.put("now", s.options.now().toString());
    return state;
  }

  /** This pass's number in {@code out}: one more than the lines of its audit log. */
  private static long passNumber(Path out) throws IOException {
    Path audit = out.resolve(Artifacts.AUDIT);
    if (!Files.exists(audit)) {
      return 1;
    }
    try (var lines = Files.lines(audit)) {
      return lines.filter(l -> !l.isBlank()).count() + 1;
    }
  }
}
