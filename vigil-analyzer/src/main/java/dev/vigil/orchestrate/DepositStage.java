package dev.vigil.orchestrate;

import dev.vigil.appraise.Appraiser;
import dev.vigil.emobank.Decay;
import dev.vigil.emobank.EmoBank;
import dev.vigil.emobank.EmotionRow;
import dev.vigil.emobank.Snapshot;
import dev.vigil.ingest.EventIdentity;
import dev.vigil.ingest.Prefetcher;
import dev.vigil.observe.Event;
import dev.vigil.observe.Timestamps;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The default {@link BankStage}: one {@link Sweep} of the window, each event to the detectors and
 * then appraised; its row and the rows of the derived events are deposited once each, in timestamp
 * order (through a buffer of {@value #REORDER} rows: a derived event is found after the event it is
 * about), the snapshot taken over the window's live rows, the bank committed (with the queue
 * position read, for exactly-once). The detectors sweep on a thread of its own, a few batches ahead
 * of the appraisals and deposits on the calling thread. A pass of {@code watch} ({@link
 * PassOptions#liveBank()}) sweeps on its thread alone, reads the bank as last committed and leaves
 * its deposits to the tail.
 */
final class DepositStage implements BankStage {
  /** Rows held to deposit in timestamp order. */
  static final int REORDER = 4096;

  private record Deposit(
      long tsNanos, boolean derived, long order, long identity, EmotionRow row) {}

  /** By time, an event before what was derived at the same time, then in the order found. */
  private static final Comparator<Deposit> DEPOSIT_TIME =
      (a, b) ->
          a.tsNanos != b.tsNanos
              ? Long.compare(a.tsNanos, b.tsNanos)
              : a.derived != b.derived
                  ? Boolean.compare(a.derived, b.derived)
                  : Long.compare(a.order, b.order);

  /** The deposits of one pass, counted. */
  private static final class Deposits {
    final PassOptions o;
    final EmoBank bank;
    final Depositor depositor;
    final TimeOrderBuffer<Deposit> held = new TimeOrderBuffer<>(DEPOSIT_TIME);
    final List<EmoBank.PendingDeposit> pending = new ArrayList<>();
    long order;
    long deposited;
    long already;
    long derivedEvents;
    long derivedDeposited;

    Deposits(PassOptions o, EmoBank bank) {
      this.o = o;
      this.bank = bank;
      this.depositor = new Depositor(o.rules());
    }

    void add(long identity, Event event, boolean derived) {
      if (derived) {
        derivedEvents++;
      } else if (Appraiser.isContext(event)) {
        return; // conversation context: read by the detectors, deposited never
      }
      if (bank.isDeposited(identity)) {
        already += derived ? 0 : 1;
        return;
      }
      held.add(
          new Deposit(
              Timestamps.epochNanos(event.ts()), derived, order++, identity, depositor.row(event)));
      if (held.size() > REORDER) {
        deposit(held.poll());
      }
    }

    void drain() {
      while (!held.isEmpty()) {
        deposit(held.poll());
      }
    }

    private void deposit(Deposit d) {
      if (bank.isDeposited(d.identity())) {
        already += d.derived() ? 0 : 1; // the same event twice in the input
        return;
      }
      try {
        bank.deposit(d.identity(), d.row());
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      if (o.liveBank()) {
        pending.add(
            new EmoBank.PendingDeposit(
                d.identity(), d.row(), d.derived())); // the tail deposits them
      } else if (d.derived()) {
        derivedDeposited++;
      } else {
        deposited++;
      }
    }
  }

  /** Where a sweep hands each event, and each event a detector derives, in the order found. */
  @FunctionalInterface
  private interface Found {
    void add(long identity, Event event, boolean derived);
  }

  /** An event on its way from the sweep to the deposits. */
  private record Handed(long identity, Event event, boolean derived) {}

  /** One sweep of the window on this thread, each event and derived event to {@code found}. */
  private static Sweep sweep(Window window, PassOptions o, Found found) {
    return Sweep.of(
        window,
        o.detectors(),
        (detector, d) ->
            found.add(EventIdentity.ofDerived(detector, d.sourceIdentity()), d.event(), true),
        w -> found.add(w.identity(), w.event(), false),
        Sweep.scorer(o.rules()));
  }

  /**
   * The sweep on a thread of its own, a few batches ahead of the deposits, which stay on this
   * thread with the bank: the same deposits in the same order, the detectors' work on the second
   * core.
   */
  private static Sweep sweepAhead(Window window, PassOptions o, Deposits deposits)
      throws IOException {
    Sweep[] swept = new Sweep[1];
    Prefetcher.<Handed>run(
        "vigil-sweep",
        out ->
            swept[0] =
                sweep(
                    window,
                    o,
                    (identity, event, derived) -> {
                      try {
                        out.put(new Handed(identity, event, derived), 0);
                      } catch (InterruptedIOException e) {
                        throw new UncheckedIOException(e); // the deposits have stopped
                      }
                    }),
        (h, n) -> deposits.add(h.identity(), h.event(), h.derived()));
    return swept[0]; // set before the sweep's thread handed on its last batch
  }

  @Override
  public BankUpdate update(PassContext pass, Window window, EmoBank bank) throws IOException {
    PassOptions o = pass.options();
    Deposits deposits = new Deposits(o, bank);
    Sweep sweep;
    try {
      // a pass of watch sweeps on its own thread alone: the other core is the tail's
      sweep = o.liveBank() ? sweep(window, o, deposits::add) : sweepAhead(window, o, deposits);
      deposits.drain();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    if (window.queueKey() != null) {
      bank.queuePositions().record(window.queueKey(), window.queueLastIndex());
    }
    Snapshot snapshot =
        Snapshot.of(bank.liveRows(o.windowStart(), o.now()), new Decay(o.halfLife()), o.now());
    bank.commit(BankState.of(snapshot, o.now(), null), o.now().minus(o.retention()));
    List<EmotionRow> rows =
        bank.liveRows(o.windowStart(), o.now()); // after the commit, which may compact
    return new BankUpdate(
        snapshot,
        rows,
        deposits.deposited,
        deposits.already,
        deposits.derivedEvents,
        deposits.derivedDeposited,
        bank.rowsAppended(),
        deposits.depositor.badDelayValues(),
        deposits.pending,
        sweep);
  }
}
