package dev.vigil.orchestrate;

import dev.vigil.adapt.code.CodeOutcome;
import dev.vigil.adapt.prompt.PromptOutcome;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.diagnose.Diagnosis;
import dev.vigil.emobank.EmoBank;
import dev.vigil.emobank.Snapshot;
import java.util.List;
import java.util.Map;

/**
 * What one reflective pass found and did.
 *
 * @param options           the pass's options
 * @param stage             the last stage reached
 * @param eventsRead        events read from the input
 * @param eventsInWindow    of those, inside the window
 * @param eventsUsed        of those, the newest {@code limit}
 * @param eventsDeposited   of those, deposited now for the first time
 * @param alreadyDeposited  of those, deposited by an earlier pass
 * @param rowsAppended      rows appended to the EmoBank
 * @param naiveTimestamps   events whose ts had no offset
 * @param skipped           input skipped, by reason
 * @param badDelayValues    events whose {@code delayed_by_sec} was not a number (ignored)
 * @param snapshot          the affective state over the window
 * @param diagnosis         the RBT diagnosis
 * @param detections        what each detector found, in the order they ran
 * @param derivedEvents     events the detectors derived (appraised and deposited like any other)
 * @param derivedDeposited  of those, deposited now for the first time
 * @param prompt            what the prompt stage did, or null without {@code --prompt}
 * @param code              what the code stage did (skipped without {@code --repo})
 * @param internalThorns    faults inside Vigil's own stages this pass (SPEC section 4.9)
 * @param resolvedThorns    internal thorns of earlier passes that did not recur
 * @param fallback          the fallback taken after a failed stage, in words, or null
 * @param llm               what the LLM did, or null without {@code --llm}
 * @param pendingDeposits   a pass of {@code watch}: what it appraised that the bank, as last committed, did not
 *                          hold, left to the tail to deposit (empty otherwise)
 */
public record PassResult(
    PassOptions options,
    String stage,
    long eventsRead,
    long eventsInWindow,
    long eventsUsed,
    long eventsDeposited,
    long alreadyDeposited,
    long rowsAppended,
    long naiveTimestamps,
    Map<String, Long> skipped,
    long badDelayValues,
    Snapshot snapshot,
    Diagnosis diagnosis,
    List<Detection> detections,
    long derivedEvents,
    long derivedDeposited,
    PromptOutcome prompt,
    CodeOutcome code,
    List<InternalThorn> internalThorns,
    List<InternalThorn> resolvedThorns,
    String fallback,
    LlmRun llm,
    List<EmoBank.PendingDeposit> pendingDeposits) {

  /** Whether the pass finished degraded (exit 1): a stage refused or failed. */
  public boolean degraded() {
    return (prompt != null && prompt.isRefused()) || !internalThorns.isEmpty();
  }
}
