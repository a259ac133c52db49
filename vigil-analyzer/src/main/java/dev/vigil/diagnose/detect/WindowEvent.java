package dev.vigil.diagnose.detect;

import dev.vigil.dialogue.DialogueEvent;
import dev.vigil.observe.Event;

/**
 * One event of the pass's window, as the detectors see it.
 *
 * @param event the event, ts in UTC
 * @param identity its exactly-once identity; derived events are keyed on it
 * @param ref what evidence cites: the JSONL line number, or the agent's {@code seq} (the excerpt
 *     index when the event has none)
 * @param naiveTs true when the event's {@code ts} had no offset and was read in the assumed zone
 */
public record WindowEvent(Event event, long identity, long ref, boolean naiveTs)
    implements DialogueEvent {}
