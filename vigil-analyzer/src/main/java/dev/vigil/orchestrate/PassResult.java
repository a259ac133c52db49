package dev.vigil.orchestrate;

import dev.vigil.adapt.code.CodeOutcome;
import dev.vigil.adapt.prompt.PromptOutcome;
import dev.vigil.diagnose.Alarm;
import dev.vigil.diagnose.Diagnosis;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.emobank.EmoBank;
import dev.vigil.emobank.Snapshot;
import java.util.List;
import java.util.Map;

/**
 * What one reflective pass found and did: the records its stages handed on, in order.
 *
 * @param options the pass's options
 * @param stage the last stage reached
 * @param window what ingest read
 * @param detections what each detector found, in the order they ran
 * @param bank what {@code update_eb_from_logs} did, with the snapshot
 * @param diagnosis the RBT diagnosis (provisional after a failed stage)
 * @param alarm the alarm over the window's findings (docs/DESIGN.md#the-alarm)
 * @param prompt what the prompt stage did, or null without {@code --prompt} or when it failed
 * @param code what the code stage did (skipped without {@code --repo})
 * @param repair the internal thorns and the fallback taken (docs/STAGES.md#self-repair)
 * @param llm what the LLM did, or null without {@code --llm}
 */
public record PassResult(
    PassOptions options,
    String stage,
    Window window,
    List<Detection> detections,
    BankUpdate bank,
    Diagnosis diagnosis,
    Alarm alarm,
    PromptOutcome prompt,
    CodeOutcome code,
    SelfRepair repair,
    LlmRun llm) {

  /** Copies the list. */
  public PassResult {
    detections = List.copyOf(detections);
  }

  /** Whether the pass finished degraded (exit 1): a stage refused or failed. */
  public boolean degraded() {
    return (prompt != null && prompt.isRefused()) || !repair.internalThorns().isEmpty();
  }

  /** Events read from the input. */
  public long eventsRead() {
    return window.eventsRead();
  }

  /** Of those, inside the window. */
  public long eventsInWindow() {
    return window.eventsInWindow();
  }

  /** Of those, the newest {@code --limit}: the events used. */
  public long eventsUsed() {
    return window.events().size();
  }

  /** Events whose ts had no offset. */
  public long naiveTimestamps() {
    return window.naiveTimestamps();
  }

  /** Input skipped, by reason. */
  public Map<String, Long> skipped() {
    return window.skipped();
  }

  /** Events used that were deposited now for the first time. */
  public long eventsDeposited() {
    return bank.deposited();
  }

  /** Events used that an earlier pass had deposited. */
  public long alreadyDeposited() {
    return bank.alreadyDeposited();
  }

  /** Rows appended to the EmoBank. */
  public long rowsAppended() {
    return bank.rowsAppended();
  }

  /** Events whose {@code delayed_by_sec} was not a number (ignored). */
  public long badDelayValues() {
    return bank.badDelayValues();
  }

  /** The affective state over the window. */
  public Snapshot snapshot() {
    return bank.snapshot();
  }

  /** Events the detectors derived. */
  public long derivedEvents() {
    return bank.derivedEvents();
  }

  /** Of those, deposited now for the first time. */
  public long derivedDeposited() {
    return bank.derivedDeposited();
  }

  /** A pass of {@code watch}: the deposits left to its tail. */
  public List<EmoBank.PendingDeposit> pendingDeposits() {
    return bank.pendingDeposits();
  }

  /** Faults inside Vigil's own stages this pass. */
  public List<InternalThorn> internalThorns() {
    return repair.internalThorns();
  }

  /** Internal thorns of earlier passes that did not recur. */
  public List<InternalThorn> resolvedThorns() {
    return repair.resolved();
  }

  /** The fallback taken after a failed stage, in words, or null. */
  public String fallback() {
    return repair.fallback();
  }
}
