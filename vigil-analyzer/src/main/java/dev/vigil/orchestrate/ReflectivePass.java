package dev.vigil.orchestrate;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.adapt.code.CodeOutcome;
import dev.vigil.adapt.code.CodeProposals;
import dev.vigil.adapt.prompt.AdaptiveContent;
import dev.vigil.adapt.prompt.PromptAdaptation;
import dev.vigil.adapt.prompt.PromptOutcome;
import dev.vigil.appraise.Appraisal;
import dev.vigil.appraise.Appraiser;
import dev.vigil.diagnose.detect.Derived;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.diagnose.detect.WindowEvent;
import dev.vigil.diagnose.Diagnosis;
import dev.vigil.diagnose.RbtDiagnosis;
import dev.vigil.diagnose.ReflectionNote;
import dev.vigil.emobank.Decay;
import dev.vigil.emobank.EmoBank;
import dev.vigil.emobank.EmotionRow;
import dev.vigil.emobank.Snapshot;
import dev.vigil.ingest.EventIdentity;
import dev.vigil.ingest.IngestSink;
import dev.vigil.ingest.IngestStats;
import dev.vigil.ingest.JsonlSource;
import dev.vigil.ingest.QueueSource;
import dev.vigil.observe.Event;
import dev.vigil.report.Artifacts;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * One reflective pass (the paper's section 2.2): ingest the window, run the detectors over it, appraise each event
 * and each derived event, deposit into the EmoBank exactly once, take the snapshot and diagnose Roses/Buds/Thorns,
 * then commit the bank.
 *
 * <p>Memory stays proportional to {@code --limit}, not to the input: while reading, only the newest {@code limit}
 * events of the window are held (a heap evicts the oldest).
 */
public final class ReflectivePass {
  /** The stage a pass reaches when the bank is updated. */
  public static final String EB_UPDATED = "eb_updated";
  /** The stage a pass reaches when it has diagnosed. */
  public static final String DIAGNOSED = "diagnosed";
  /** The stage a pass reaches when the prompt stage has run (or had no prompt to adapt). */
  public static final String PROMPT_DONE = "prompt_done";
  /** The stage a pass reaches when the code stage has run (or had no repository to read). */
  public static final String DIFF_DONE = "diff_done";

  private record Candidate(WindowEvent window, long order) {
    Instant ts() {
      return window.event().ts();
    }
  }

  private record Deposit(Instant ts, long order, long identity, Event event, boolean derived) {}

  private static final Comparator<Candidate> EVENT_TIME =
      Comparator.comparing(Candidate::ts).thenComparingLong(Candidate::order);
  private static final Comparator<Deposit> DEPOSIT_TIME =
      Comparator.comparing(Deposit::ts).thenComparingLong(Deposit::order);

  private final InputStream stdin;
  private final Clock clock;

  /**
   * @param stdin what {@code --events -} reads
   * @param clock when kept prompt versions were made
   */
  public ReflectivePass(InputStream stdin, Clock clock) {
    this.stdin = stdin;
    this.clock = clock;
  }

  /**
   * Runs the pass.
   *
   * @throws IllegalArgumentException naming the input when it is missing or unreadable
   * @throws dev.vigil.emobank.BankCorruptException naming the file and line of a corrupt bank
   */
  public PassResult run(PassOptions o) throws IOException {
    Appraiser appraiser = o.rules().appraisal().newAppraiser();
    PriorityQueue<Candidate> newest = new PriorityQueue<>(EVENT_TIME);
    long[] counts = {0, 0}; // input order, events in the window
    JsonlSource jsonl = o.events() != null ? new JsonlSource(o.events(), o.assumeZone(), stdin) : null;
    QueueSource queue = o.queue() != null ? new QueueSource(o.queue()) : null;
    if (jsonl != null) {
      jsonl.check();
    }
    try (EmoBank bank = EmoBank.open(o.emobank())) {
      IngestSink sink = (event, identity, ref, naiveTs) -> {
        if (!o.acceptsAgent(event.agent())) {
          return; // another agent of a fleet: its own pass reads it
        }
        long n = counts[0]++;
        if (o.inWindow(event.ts())) {
          counts[1]++;
          newest.add(new Candidate(new WindowEvent(event, identity, ref, naiveTs), n));
          if (newest.size() > o.limit()) {
            newest.poll();
          }
        }
      };
      // a queue is read over the whole window, so that detectors see what earlier passes deposited
      IngestStats stats = jsonl != null
          ? jsonl.read(sink)
          : queue.read(-1, o.now(), o.windowStart(), sink);

      List<Candidate> used = new ArrayList<>(newest);
      used.sort(EVENT_TIME);
      List<WindowEvent> window = used.stream().map(Candidate::window).toList();
      List<Detection> detections = o.detectors().run(window);

      List<Deposit> deposits = new ArrayList<>(used.size());
      for (Candidate c : used) {
        deposits.add(new Deposit(c.ts(), c.order(), c.window().identity(), c.window().event(), false));
      }
      long derivedEvents = 0;
      for (Detection d : detections) {
        for (Derived derived : d.derived()) {
          derivedEvents++;
          deposits.add(new Deposit(derived.event().ts(), counts[0] + derivedEvents,
              EventIdentity.ofDerived(d.name(), derived.sourceIdentity()), derived.event(), true));
        }
      }
      deposits.sort(DEPOSIT_TIME);
      long deposited = 0;
      long already = 0;
      long derivedDeposited = 0;
      for (Deposit d : deposits) {
        if (bank.isDeposited(d.identity())) {
          already += d.derived() ? 0 : 1;
          continue;
        }
        Appraisal a = appraiser.appraise(d.event());
        bank.deposit(d.identity(), EmotionRow.of(d.ts(), a.emotion(), a.intensity(), a.valence(), a.cause()));
        if (d.derived()) {
          derivedDeposited++;
        } else {
          deposited++;
        }
      }
      if (queue != null) {
        bank.queuePosition(queue.key(), queue.lastIndex());
      }

      Decay decay = new Decay(o.halfLife());
      List<EmotionRow> windowRows = new ArrayList<>();
      for (EmotionRow row : bank.liveRows()) {
        if (o.inWindow(row.ts())) {
          windowRows.add(row);
        }
      }
      Snapshot snapshot = Snapshot.of(windowRows, decay, o.now());
      Diagnosis diagnosis = new RbtDiagnosis(o.rules().rbt(), decay).diagnose(windowRows, o.now(), detections);
      ObjectNode state = snapshot.toJson();
      state.put("now", o.now().toString());
      bank.commit(state, o.now().minus(o.retention()));

      PromptOutcome prompt = null;
      if (o.prompt() != null) {
        AdaptiveContent content = AdaptiveContent.of(diagnosis, ReflectionNote.of(snapshot, diagnosis, detections),
            o.now(), String.valueOf(passNumber(o.out())));
        prompt = PromptAdaptation.adapt(o.prompt(), content, o.out(), clock);
      }
      CodeOutcome code = new CodeProposals(CodeProposals.defaultStrategies(), o.codeSettings())
          .run(o.repo(), EvidenceOf.pass(diagnosis, detections), o.out(), o.now());
      return new PassResult(o, DIFF_DONE, stats.eventsRead(), counts[1], used.size(), deposited, already,
          bank.rowsAppended(), stats.naiveTimestamps(), stats.skipped(), appraiser.badDelayValues(), snapshot,
          diagnosis, detections, derivedEvents, derivedDeposited, prompt, code);
    }
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
