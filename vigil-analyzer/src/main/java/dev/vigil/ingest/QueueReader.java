package dev.vigil.ingest;

import dev.vigil.observe.Event;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Reads every event of a Chronicle queue from the start, read-only: the queue directory is not changed.
 * Excerpts that are not Vigil events are skipped and counted by {@link dev.vigil.observe.EventDefect} code.
 */
public final class QueueReader {
  private final Path dir;
  private final Map<String, Long> skipped = new TreeMap<>();
  private long read;

  /**
   * @param dir the queue directory
   * @throws IllegalArgumentException naming the path when it is missing, not a directory or not a queue
   */
  public QueueReader(Path dir) {
    EventQueues.checkIsQueue(dir);
    this.dir = dir;
  }

  /**
   * Passes every event whose {@code ts} is at or after {@code from} (all events when null) to {@code sink}, in
   * queue order.
   *
   * @return the number of events passed
   */
  public long forEach(Instant from, Consumer<Event> sink) {
    long passed = 0;
    try (ChronicleQueue queue = EventQueues.openForReading(dir)) {
      ExcerptTailer tailer = queue.createTailer();
      while (true) {
        try (DocumentContext dc = tailer.readingDocument()) {
          if (!dc.isPresent()) {
            break;
          }
          Bytes<?> bytes = dc.wire().bytes();
          try {
            if (from != null && EventWire.peekTs(bytes).isBefore(from)) {
              continue;
            }
            sink.accept(EventWire.read(bytes));
            passed++;
            read++;
          } catch (EventFormatException e) {
            skipped.merge(e.defect().code(), 1L, Long::sum);
          }
        }
      }
    }
    return passed;
  }

  /** Excerpts skipped so far, by reason. */
  public Map<String, Long> skipped() {
    return Map.copyOf(skipped);
  }

  /** Events read so far. */
  public long eventsRead() {
    return read;
  }
}
