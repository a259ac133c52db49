package dev.vigil.orchestrate;

import dev.vigil.adapt.code.CodeOutcome;
import dev.vigil.emobank.Snapshot;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.util.List;

/**
 * One reflective pass (the paper's section 2.2, SPEC section 4.8): read the window, then walk the stages
 * {@code start → eb_updated → diagnosed → prompt_done → diff_done} through the {@link StageMachine}, each step under
 * the guard of {@link PassSession} (self-repair, SPEC section 4.9). A {@link PassDriver} walks them (the
 * deterministic walk, or an LLM); whatever it leaves undone is finished deterministically.
 *
 * <p>Memory stays proportional to {@code --limit}, not to the input: while reading, only the newest {@code limit}
 * events of the window are held ({@link PassInput}).
 */
public final class ReflectivePass {
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
    return run(o, driver, PassInput.read(o, stdin, false));
  }

  /**
   * Runs the pass over input already read: {@code input}'s share for the agent {@code o} names (the whole input when
   * it names none).
   */
  public PassResult run(PassOptions o, PassDriver driver, PassInput input) throws IOException {
    PassState s = new PassState(o, clock);
    PassInput.Share share = input.share(o.agent());
    s.stats = input.stats();
    s.queue = input.queue();
    s.window = share.window();
    s.eventsInWindow = share.eventsInWindow();
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
        List.copyOf(s.thorns), resolved, s.fallback, s.llm,
        List.copyOf(s.pendingDeposits));
  }
}
