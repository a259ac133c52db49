package dev.vigil.orchestrate;

import dev.vigil.diagnose.detect.Derived;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.diagnose.detect.WindowEvent;
import dev.vigil.appraise.Appraiser;
import dev.vigil.emobank.Decay;
import dev.vigil.emobank.EmoBank;
import dev.vigil.emobank.EmotionRow;
import dev.vigil.emobank.Snapshot;
import dev.vigil.ingest.EventIdentity;
import dev.vigil.observe.Event;
import java.io.IOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The default {@link BankStage}: the window's events and the derived ones in timestamp order, each deposited once, the
 * snapshot over the window's live rows, the bank committed (with the queue position read, for exactly-once). A pass
 * of {@code watch} ({@link PassOptions#liveBank()}) reads the bank as last committed and leaves its deposits to the
 * tail.
 */
final class DepositStage implements BankStage {
  private record Deposit(Instant ts, long order, long identity, Event event, boolean derived) {}

  private static final Comparator<Deposit> DEPOSIT_TIME =
      Comparator.comparing(Deposit::ts).thenComparingLong(Deposit::order);

  @Override
  public BankUpdate update(PassContext pass, Window window, List<Detection> detections, EmoBank bank)
      throws IOException {
    PassOptions o = pass.options();
    List<Deposit> deposits = new ArrayList<>(window.events().size());
    long order = 0;
    for (WindowEvent w : window.events()) {
      deposits.add(new Deposit(w.event().ts(), order++, w.identity(), w.event(), false));
    }
    long derivedEvents = 0;
    for (Detection d : detections) {
      for (Derived derived : d.derived()) {
        derivedEvents++;
        deposits.add(new Deposit(derived.event().ts(), order++,
            EventIdentity.ofDerived(d.name(), derived.sourceIdentity()), derived.event(), true));
      }
    }
    deposits.sort(DEPOSIT_TIME);
    Depositor depositor = new Depositor(o.rules());
    long deposited = 0;
    long already = 0;
    long derivedDeposited = 0;
    List<EmoBank.PendingDeposit> pending = new ArrayList<>();
    for (Deposit d : deposits) {
      if (!d.derived() && Appraiser.isContext(d.event())) {
        continue; // conversation context: read by the detectors, deposited never
      }
      EmotionRow row = depositor.deposit(bank, d.identity(), d.event(), d.derived());
      if (row == null) {
        already += d.derived() ? 0 : 1;
      } else if (o.liveBank()) {
        pending.add(new EmoBank.PendingDeposit(d.identity(), row, d.derived())); // the tail deposits them
      } else if (d.derived()) {
        derivedDeposited++;
      } else {
        deposited++;
      }
    }
    if (window.queueKey() != null) {
      bank.queuePositions().record(window.queueKey(), window.queueLastIndex());
    }
    List<EmotionRow> rows = windowRows(o, bank);
    Snapshot snapshot = Snapshot.of(rows, new Decay(o.halfLife()), o.now());
    bank.commit(BankState.of(snapshot, o.now(), null), o.now().minus(o.retention()));
    return new BankUpdate(snapshot, rows, deposited, already, derivedEvents, derivedDeposited, bank.rowsAppended(),
        depositor.badDelayValues(), pending);
  }

  /** The live rows inside the window, oldest first. */
  private static List<EmotionRow> windowRows(PassOptions o, EmoBank bank) {
    List<EmotionRow> rows = new ArrayList<>();
    for (EmotionRow row : bank.liveRows()) {
      if (o.inWindow(row.ts())) {
        rows.add(row);
      }
    }
    return rows;
  }
}
