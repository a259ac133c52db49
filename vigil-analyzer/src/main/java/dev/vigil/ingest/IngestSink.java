package dev.vigil.ingest;

import dev.vigil.observe.Event;

/** Receives each event an input yields, in input order. */
@FunctionalInterface
public interface IngestSink {
  /**
   * @param event    the event, ts in UTC
   * @param identity its exactly-once identity ({@link EventIdentity})
   * @param position its line number (JSONL) or excerpt index (queue), for evidence
   */
  void accept(Event event, long identity, long position);
}
