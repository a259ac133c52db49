package dev.vigil.watch;

import dev.vigil.diagnose.RbtThresholds;
import dev.vigil.emobank.EmotionRow;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * When {@code watch} (and the group watch of {@code dev.vigil.kafka}) runs a pass and for which
 * agents: {@code --every} for every agent, else the event-driven triggers of each agent ({@link
 * EventTriggers}), fed with every event deposited live. One agent (not a fleet) passes when any
 * counter fires, and its pass covers them all. Used by the tail's thread only.
 */
public final class PassTriggers {
  private final Watcher.Settings settings;
  private final RbtThresholds rbt;
  private final EverySchedule every;
  private final Map<String, EventTriggers> byAgent = new LinkedHashMap<>();

  public PassTriggers(Watcher.Settings settings, RbtThresholds rbt, Instant started) {
    this.settings = settings;
    this.rbt = rbt;
    this.every = settings.every() == null ? null : new EverySchedule(started, settings.every());
  }

  /**
   * Counts an event deposited into an agent's bank: a thorn-grade appraisal is one of the RBT's
   * thorns.
   */
  public void deposited(String agent, EmotionRow row) {
    boolean thorn = rbt.isThorn(row.emotion(), row.intensity(), row.valence());
    byAgent
        .computeIfAbsent(agent, x -> new EventTriggers(settings.afterEvents(), settings.onThorns()))
        .deposited(row.ts(), thorn);
  }

  /**
   * The agents due a pass at {@code now} and why: every agent on the timer, else those whose event
   * triggers fired.
   *
   * @param agents the agents seen so far (a fleet), or the one agent's name in a list of one
   */
  public Map<String, Trigger> due(Instant now, boolean fleet, List<String> agents) {
    Map<String, Trigger> due = new LinkedHashMap<>();
    if (every != null && every.due(now)) {
      agents.forEach(a -> due.put(a, Trigger.EVERY));
      return due;
    }
    String single = agents.get(0);
    byAgent.forEach(
        (agent, tr) -> {
          if (tr.pending() != null) {
            due.put(fleet ? agent : single, tr.pending());
          }
        });
    return due;
  }

  /**
   * The due agents' passes start: resets the counters they cover and returns, per agent, the new
   * events since its last pass. One agent's pass covers every counter; a fleet agent's only its
   * own.
   */
  public Map<String, Long> passing(Iterable<String> agents, boolean fleet) {
    Map<String, Long> events = new LinkedHashMap<>();
    for (String agent : agents) {
      List<EventTriggers> covered =
          fleet
              ? (byAgent.containsKey(agent) ? List.of(byAgent.get(agent)) : List.of())
              : List.copyOf(byAgent.values());
      events.put(agent, covered.stream().mapToLong(EventTriggers::eventsSincePass).sum());
      covered.forEach(EventTriggers::passed);
    }
    return events;
  }

  /** A pass ended at {@code now}: the next {@code --every} slot is the next one still ahead. */
  public void passEnded(Instant now) {
    if (every != null) {
      every.passed(now);
    }
  }

  /** The schedule as the start line gives it. */
  public String describe() {
    List<String> parts = new java.util.ArrayList<>();
    if (settings.every() != null) {
      parts.add("every " + settings.every());
    }
    if (settings.afterEvents() > 0) {
      parts.add("after " + settings.afterEvents() + " events");
    }
    if (settings.onThorns() != null) {
      parts.add(
          "on " + settings.onThorns().count() + " thorns within " + settings.onThorns().within());
    }
    return parts.isEmpty() ? "no trigger (deposits only)" : "passes " + String.join(", ", parts);
  }
}
