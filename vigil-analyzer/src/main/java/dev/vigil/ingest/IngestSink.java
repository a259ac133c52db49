package dev.vigil.ingest;

import dev.vigil.observe.Event;
import java.util.function.LongSupplier;

/** Receives each event an input yields, in input order. */
@FunctionalInterface
public interface IngestSink {
  /**
   * @param event    the event, ts in UTC
   * @param identity its exactly-once identity ({@link EventIdentity}), computed on demand: hashing a JSONL event's
   *                 content costs more than reading it, and most events of a large input are never deposited
   * @param ref      what evidence cites: its line number (JSONL), or its {@code seq} (queue; the excerpt index when
   *                 it has none)
   * @param naiveTs  true when its {@code ts} had no offset and was read in the assumed zone
   */
  void accept(Event event, LongSupplier identity, long ref, boolean naiveTs);
}
