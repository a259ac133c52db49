package dev.vigil.it;

import dev.vigil.observe.Event;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.SpillImport;
import dev.vigil.observe.TailerEvents;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import net.openhft.chronicle.queue.ChronicleQueue;

/**
 * A queue's events counted without keeping them (hundreds of thousands fit in no test's heap as
 * trees): how many of each kind, how many from each thread, and the first place where {@code seq}
 * is not strictly increasing in queue order.
 *
 * @param events events read
 * @param perKind events per kind
 * @param perThread events per calling thread
 * @param seqProblem where {@code seq} first failed to increase ({@code "5 then 4"}), or null
 */
public record QueueTally(
    long events, Map<String, Long> perKind, Map<String, Long> perThread, String seqProblem) {
  /**
   * Reads every event of the queue in {@code dir}, after importing its spill files as the
   * analyzer's readers do.
   */
  public static QueueTally of(Path dir) throws EventFormatException {
    SpillImport.importPending(dir);
    long events = 0;
    Map<String, Long> perKind = new TreeMap<>();
    Map<String, Long> perThread = new TreeMap<>();
    String seqProblem = null;
    long previous = 0;
    try (ChronicleQueue q = EventQueues.openForReading(dir)) {
      TailerEvents tailer = new TailerEvents(q.createTailer());
      for (Event e = tailer.next(); e != null; e = tailer.next()) {
        events++;
        perKind.merge(e.kind(), 1L, Long::sum);
        perThread.merge(String.valueOf(e.thread()), 1L, Long::sum);
        if (seqProblem == null && (e.seq() == null || e.seq() <= previous)) {
          seqProblem = previous + " then " + e.seq() + " at event " + events;
        }
        previous = e.seq() == null ? previous : e.seq();
      }
    }
    return new QueueTally(events, perKind, perThread, seqProblem);
  }
}
