package dev.vigil.ingest;

import dev.vigil.observe.Event;

/** Receives each event an input yields, in input order. */
@FunctionalInterface
public interface IngestSink {
  /**
   * @param event    the event, ts in UTC
   * @param identity its exactly-once identity ({@link EventIdentity})
   * @param ref      what evidence cites: its line number (JSONL), or its {@code seq} (queue; the excerpt index when
   *                 it has none)
   * @param naiveTs  true when its {@code ts} had no offset and was read in the assumed zone
   */
  void accept(Event event, long identity, long ref, boolean naiveTs);
}
