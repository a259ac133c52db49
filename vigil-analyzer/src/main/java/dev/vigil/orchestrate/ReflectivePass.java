package dev.vigil.orchestrate;

import dev.vigil.adapt.code.CodeOutcome;
import dev.vigil.diagnose.detect.WindowEvent;
import dev.vigil.emobank.Snapshot;
import dev.vigil.ingest.IngestSink;
import dev.vigil.ingest.JsonlSource;
import dev.vigil.ingest.QueueSource;
import dev.vigil.observe.Event;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * One reflective pass (the paper's section 2.2, SPEC section 4.8): read the window, then walk the stages
 * {@code start → eb_updated → diagnosed → prompt_done → diff_done} through the {@link StageMachine}, each step under
 * the guard of {@link PassSession} (self-repair, SPEC section 4.9). A {@link PassDriver} walks them (the
 * deterministic walk, or an LLM); whatever it leaves undone is finished deterministically.
 *
 * <p>Memory stays proportional to {@code --limit}, not to the input: while reading, only the newest {@code limit}
 * events of the window are held (a heap evicts the oldest).
 */
public final class ReflectivePass {
  private record Candidate(Event event, LongSupplier identity, long ref, boolean naiveTs, long order) {
    Instant ts() {
      return event.ts();
    }
  }

  private static final Comparator<Candidate> EVENT_TIME =
      Comparator.comparing(Candidate::ts).thenComparingLong(Candidate::order);

  private final InputStream stdin;
  private final Clock clock;
  private final Stages stages;

  /**
   * @param stdin what {@code --events -} reads
   * @param clock when kept prompt versions were made
   */
  public ReflectivePass(InputStream stdin, Clock clock) {
    this(stdin, clock, new Stages());
  }

  /** @param stages the work of each stage (a test may swap one) */
  public ReflectivePass(InputStream stdin, Clock clock, Stages stages) {
    this.stdin = stdin;
    this.clock = clock;
    this.stages = stages;
  }

  /** Runs the pass deterministically; see {@link #run(PassOptions, PassDriver)}. */
  public PassResult run(PassOptions o) throws IOException {
    return run(o, PassDriver.DETERMINISTIC);
  }

  /**
   * Runs the pass: reads the window, lets {@code driver} walk the stages, finishes what it left, and records the
   * internal thorns (those of earlier passes that did not recur are reported resolved).
   *
   * @throws IllegalArgumentException naming the input when it is missing or unreadable (nothing is written)
   */
  public PassResult run(PassOptions o, PassDriver driver) throws IOException {
    PassState s = new PassState(o, clock);
    read(o, s);
    s.last = LastSnapshot.read(o.emobank()); // as the last pass left it: this pass may replace state.json
    PassSession session = new PassSession(stages, s);
    try {
      driver.drive(session);
      session.finish();
    } finally {
      if (s.bank != null) {
        s.bank.close();
      }
    }
    List<InternalThorn> resolved = OpenInternalThorns.update(o.out(), s.thorns);
    return new PassResult(o, s.machine.current().label(), s.stats.eventsRead(), s.eventsInWindow, s.window.size(),
        s.deposited, s.alreadyDeposited, s.bank == null ? 0 : s.bank.rowsAppended(), s.stats.naiveTimestamps(),
        s.stats.skipped(), s.appraiser.badDelayValues(), s.snapshot == null ? Snapshot.empty() : s.snapshot,
        s.diagnosis, s.detections, s.derivedEvents, s.derivedDeposited, s.prompt,
        s.code == null ? CodeOutcome.skipped("the code stage did not run") : s.code,
        List.copyOf(s.thorns), resolved, s.fallback, s.llm);
  }

  /** Reads the input: the newest {@code limit} events of the window, oldest first. */
  private void read(PassOptions o, PassState s) throws IOException {
    NewestEvents<Candidate> newest = new NewestEvents<>(o.limit(), EVENT_TIME);
    JsonlSource jsonl = o.events() != null ? new JsonlSource(o.events(), o.assumeZone(), stdin) : null;
    s.queue = o.queue() != null ? new QueueSource(o.queue()) : null;
    if (jsonl != null) {
      jsonl.check();
    }
    IngestSink sink = (event, identity, ref, naiveTs) -> {
      if (!o.acceptsAgent(event.agent())) {
        return; // another agent of a fleet: its own pass reads it
      }
      long n = s.inputOrder++;
      if (o.inWindow(event.ts())) {
        s.eventsInWindow++;
        newest.add(new Candidate(event, identity, ref, naiveTs, n));
      }
    };
    // a queue is read over the whole window, so that detectors see what earlier passes deposited
    try {
      s.stats = jsonl != null ? jsonl.read(sink) : s.queue.read(-1, o.now(), o.windowStart(), sink);
    } catch (IOException e) {
      throw new IllegalArgumentException((jsonl != null ? "events file " + o.events() : "queue " + o.queue())
          + " cannot be read: " + e.getMessage(), e);
    }
    List<WindowEvent> window = new ArrayList<>();
    for (Candidate c : newest.oldestFirst()) {
      window.add(new WindowEvent(c.event(), c.identity().getAsLong(), c.ref(), c.naiveTs()));
    }
    s.window = window;
  }
}
