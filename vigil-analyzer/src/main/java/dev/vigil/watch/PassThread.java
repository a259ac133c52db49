package dev.vigil.watch;

import dev.vigil.emobank.EmoBank;
import dev.vigil.fleet.FleetLayout;
import dev.vigil.io.Notice;
import java.io.PrintWriter;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The thread {@code watch}'s passes run on, beside the tail, one batch at a time: a batch is the
 * passes of the agents due at once, then the fleet summary. The tail starts a batch only when none
 * is in flight.
 */
final class PassThread implements AutoCloseable {
  private final Clock clock;

  /** One agent's pass: what it left to deposit, under the layout it ran in. */
  record Outcome(String agent, boolean fleet, List<EmoBank.PendingDeposit> deposits) {}

  private final WatchPasses passes;
  private final PrintWriter out;
  private final PrintWriter err;
  private final ExecutorService thread =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "vigil-pass");
            t.setDaemon(true);
            return t;
          });
  private Future<List<Outcome>> inFlight;
  private volatile Thread running;

  PassThread(WatchPasses passes, Clock clock, PrintWriter out, PrintWriter err) {
    this.clock = clock;
    this.passes = passes;
    this.out = out;
    this.err = err;
  }

  /** Whether a batch is in flight (finished or not, until {@link #await}). */
  boolean busy() {
    return inFlight != null;
  }

  /** Whether the batch in flight has finished. */
  boolean finished() {
    return inFlight != null && inFlight.isDone();
  }

  /**
   * Starts the passes of the due agents.
   *
   * @param events per agent, new events since its last pass
   * @param depositedLive events {@code watch} has deposited so far
   */
  void start(
      Map<String, Trigger> due, Map<String, Long> events, FleetLayout layout, long depositedLive) {
    inFlight =
        thread.submit(
            () -> {
              running = Thread.currentThread();
              try {
                return batch(due, events, layout, depositedLive);
              } finally {
                running = null;
                Thread.interrupted(); // a cancelled pass leaves the thread clean for the next
              }
            });
  }

  private List<Outcome> batch(
      Map<String, Trigger> due, Map<String, Long> events, FleetLayout layout, long depositedLive) {
    List<Outcome> outcomes = new ArrayList<>();
    for (Map.Entry<String, Trigger> d : due.entrySet()) {
      String agent = d.getKey();
      outcomes.add(
          new Outcome(
              agent,
              layout.fleet(),
              passes.run(agent, d.getValue(), events.get(agent), layout, depositedLive)));
    }
    if (layout.fleet()) {
      passes.summarize(layout, depositedLive);
    }
    out.flush();
    err.flush();
    return outcomes;
  }

  /**
   * Interrupts the batch in flight (when {@code watch} stops and its pass runs over the grace): the
   * pass ends at its next check and leaves nothing to deposit.
   */
  void interrupt() {
    Thread t = running;
    if (t != null) {
      t.interrupt();
    }
  }

  /**
   * Waits for the batch in flight and returns what its passes left to deposit; none when nothing is
   * in flight.
   */
  List<Outcome> await() {
    if (inFlight == null) {
      return List.of();
    }
    try {
      return inFlight.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return List.of();
    } catch (ExecutionException e) {
      // WatchPasses reports a failing pass itself; anything else escaping it is one line and no
      // deposits
      err.println(
          Notice.line(clock.instant(), "watch", Notice.Level.WARN, "pass failed: " + e.getCause()));
      return List.of();
    } finally {
      inFlight = null;
    }
  }

  @Override
  public void close() {
    thread.shutdownNow();
  }
}
