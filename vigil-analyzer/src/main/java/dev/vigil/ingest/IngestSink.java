package dev.vigil.ingest;

import dev.vigil.observe.PendingEvent;
import java.util.function.LongSupplier;

/** Receives each event an input yields, in input order. */
@FunctionalInterface
public interface IngestSink {
  /**
   * Receives one event.
   *
   * @param event the event, ts in UTC; a JSONL event's payload tree is built when {@link
   *     PendingEvent#event()} is first called, so a sink that keeps few of the events builds few
   *     trees
   * @param identity its exactly-once identity ({@link EventIdentity}), computed on demand: hashing
   *     a JSONL event's content costs more than reading it, and most events of a large input are
   *     never deposited
   * @param ref what evidence cites: its line number (JSONL), or its {@code seq} (queue; the excerpt
   *     index when it has none)
   */
  void accept(PendingEvent event, LongSupplier identity, long ref);
}
