package dev.vigil.orchestrate;

import java.util.Map;

/**
 * What ingest hands the pass (docs/DESIGN.md#the-window): the newest {@code --limit} events of the
 * window, walked from the input when the pass needs them, and what reading the input came to.
 *
 * @param events the events used, walked oldest first
 * @param eventsRead events read from the input
 * @param eventsInWindow of those, inside the window (before the limit)
 * @param naiveTimestamps events whose ts had no offset
 * @param skipped input skipped, by reason
 * @param queueKey the queue's position key, or null for a JSONL input
 * @param queueLastIndex the index of the queue's last excerpt read (when {@code queueKey} is not
 *     null)
 */
public record Window(
    WindowEvents events,
    long eventsRead,
    long eventsInWindow,
    long naiveTimestamps,
    Map<String, Long> skipped,
    String queueKey,
    long queueLastIndex) {
  /** Copies the map. */
  public Window {
    skipped = Map.copyOf(skipped);
  }
}
