package dev.vigil.orchestrate;

import dev.vigil.adapt.code.CodeProposals;
import dev.vigil.diagnose.detect.Detectors;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;

/**
 * Everything one reflective pass needs (docs/COMMANDS.md#run).
 *
 * @param events a JSONL file or {@code -} for stdin; null when reading a queue
 * @param queue a Chronicle queue directory; null when reading JSONL
 * @param emobank the EmoBank directory
 * @param prompt the agent's prompt file, or null
 * @param repo the agent's source tree, or null
 * @param out where artifacts go
 * @param now the pass's now
 * @param window the window before now
 * @param limit at most this many of the newest events are used
 * @param halfLife the decay half-life
 * @param assumeZone the zone naive timestamps are read in
 * @param rules appraisal rules and RBT thresholds
 * @param retention EmoBank rows older than this before now are compacted into episode totals
 * @param detectors the soft-failure detectors to run (docs/DETECTORS.md)
 * @param codeSettings how proposals are checked: the class path the repository's sources compile
 *     against
 * @param agent only the events of this agent (its {@link dev.vigil.ingest.AgentName} display name);
 *     null: all
 * @param liveBank {@code watch}'s tail deposits into the bank as events arrive: the pass reads the
 *     bank as last committed ({@link dev.vigil.emobank.EmoBank#openCommitted}) and leaves its
 *     deposits to the tail
 */
public record PassOptions(
    String events,
    Path queue,
    Path emobank,
    Path prompt,
    Path repo,
    Path out,
    Instant now,
    Duration window,
    int limit,
    Duration halfLife,
    ZoneId assumeZone,
    Rules rules,
    Duration retention,
    Detectors detectors,
    CodeProposals.Settings codeSettings,
    String agent,
    boolean liveBank) {

  /** Options over the events of every agent. */
  public PassOptions(
      String events,
      Path queue,
      Path emobank,
      Path prompt,
      Path repo,
      Path out,
      Instant now,
      Duration window,
      int limit,
      Duration halfLife,
      ZoneId assumeZone,
      Rules rules,
      Duration retention,
      Detectors detectors,
      CodeProposals.Settings codeSettings) {
    this(
        events,
        queue,
        emobank,
        prompt,
        repo,
        out,
        now,
        window,
        limit,
        halfLife,
        assumeZone,
        rules,
        retention,
        detectors,
        codeSettings,
        null,
        false);
  }

  /**
   * These options for one agent's pass of a fleet (or the whole input when {@code newAgent} is
   * null).
   */
  public PassOptions forAgent(String newAgent, Path newEmobank, Path newOut) {
    return new PassOptions(
        events,
        queue,
        newEmobank,
        prompt,
        repo,
        newOut,
        now,
        window,
        limit,
        halfLife,
        assumeZone,
        rules,
        retention,
        detectors,
        codeSettings,
        newAgent,
        liveBank);
  }

  /** These options with another now (each pass of {@code watch} has its own). */
  public PassOptions at(Instant newNow) {
    return new PassOptions(
        events,
        queue,
        emobank,
        prompt,
        repo,
        out,
        newNow,
        window,
        limit,
        halfLife,
        assumeZone,
        rules,
        retention,
        detectors,
        codeSettings,
        agent,
        liveBank);
  }

  /**
   * These options for a pass of {@code watch}, whose tail deposits into the bank (see {@code
   * liveBank}).
   */
  public PassOptions withLiveBank() {
    return new PassOptions(
        events,
        queue,
        emobank,
        prompt,
        repo,
        out,
        now,
        window,
        limit,
        halfLife,
        assumeZone,
        rules,
        retention,
        detectors,
        codeSettings,
        agent,
        true);
  }

  /** Whether an event of {@code eventAgent} (null when it names none) belongs to this pass. */
  public boolean acceptsAgent(String eventAgent) {
    return agent == null || agent.equals(dev.vigil.ingest.AgentName.display(eventAgent));
  }

  /** The start of the window. */
  public Instant windowStart() {
    return now.minus(window);
  }

  /** Whether {@code ts} lies in {@code [now - window, now]}. */
  public boolean inWindow(Instant ts) {
    return !ts.isBefore(windowStart()) && !ts.isAfter(now);
  }
}
