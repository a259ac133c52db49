package dev.vigil.orchestrate;

import dev.vigil.emobank.EmoBank;
import dev.vigil.emobank.EmotionRow;
import dev.vigil.emobank.Snapshot;
import java.util.Collections;
import java.util.List;

/**
 * What {@code update_eb_from_logs} did to the EmoBank (docs/DESIGN.md#the-emobank), with the
 * snapshot it took.
 *
 * @param snapshot the affective state over the window
 * @param windowRows the bank's live rows inside the window, oldest first (what the diagnosis reads)
 * @param deposited window events deposited now for the first time
 * @param alreadyDeposited window events an earlier pass had deposited
 * @param derivedEvents events the detectors derived
 * @param derivedDeposited of those, deposited now for the first time
 * @param rowsAppended rows appended to {@code emotions.jsonl}
 * @param badDelayValues events whose {@code delayed_by_sec} was not a number (ignored)
 * @param pendingDeposits a pass of {@code watch}: what it appraised that the bank as last committed
 *     did not hold, left to the tail to deposit (empty otherwise)
 * @param sweep the reading of the window: what the detectors found, the events read, the failed
 *     calls
 */
public record BankUpdate(
    Snapshot snapshot,
    List<EmotionRow> windowRows,
    long deposited,
    long alreadyDeposited,
    long derivedEvents,
    long derivedDeposited,
    long rowsAppended,
    long badDelayValues,
    List<EmoBank.PendingDeposit> pendingDeposits,
    Sweep sweep) {
  /** Copies the lists. */
  public BankUpdate {
    windowRows =
        Collections.unmodifiableList(
            windowRows); // a view of the bank's rows: a copy would make them all
    pendingDeposits = List.copyOf(pendingDeposits);
  }

  /**
   * The bank was not updated (the step failed): the fallback snapshot, nothing deposited, the
   * window read as given.
   */
  public static BankUpdate none(Snapshot fallback, long rowsAppended, Sweep sweep) {
    return new BankUpdate(fallback, List.of(), 0, 0, 0, 0, rowsAppended, 0, List.of(), sweep);
  }
}
