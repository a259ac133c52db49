package dev.vigil.observe;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Reads a queue's events one at a time through a tailer, whether an excerpt holds one event or a
 * batch of them ({@link ExcerptEvents}). For tools and tests that want every event in order; the
 * analyzer's readers walk excerpts themselves, to keep each event's place.
 */
public final class TailerEvents {
  private final ExcerptTailer tailer;
  private final ExcerptEvents events = new ExcerptEvents();

  /** Events (or why one could not be read) of the last excerpt read, not yet handed out. */
  private final ArrayDeque<Object> ahead = new ArrayDeque<>();

  /**
   * Every event of the queue in {@code dir}, in queue order.
   *
   * @throws EventFormatException at the first excerpt that is not a Vigil event
   */
  public static List<Event> all(Path dir) throws EventFormatException {
    List<Event> out = new ArrayList<>();
    try (ChronicleQueue queue = EventQueues.openForReading(dir)) {
      TailerEvents events = new TailerEvents(queue.createTailer());
      for (Event e = events.next(); e != null; e = events.next()) {
        out.add(e);
      }
    }
    return out;
  }

  /** Reads from where {@code tailer} is. */
  public TailerEvents(ExcerptTailer tailer) {
    this.tailer = tailer;
  }

  /**
   * The next event.
   *
   * @return the event, or null when the tailer is at the end of the queue
   * @throws EventFormatException when the next event cannot be read (an excerpt that is not a Vigil
   *     event); the call after goes on with what follows it
   */
  public Event next() throws EventFormatException {
    if (ahead.isEmpty()) {
      readExcerpt();
    }
    Object next = ahead.poll();
    if (next instanceof EventFormatException e) {
      throw e;
    }
    return (Event) next;
  }

  private void readExcerpt() {
    try (DocumentContext dc = tailer.readingDocument()) {
      if (!dc.isPresent()) {
        return;
      }
      Bytes<?> bytes = dc.wire().bytes();
      events.start(bytes);
      while (true) {
        try {
          if (!events.next()) {
            break;
          }
          ahead.add(EventWire.read(events.event()));
        } catch (EventFormatException e) {
          ahead.add(e);
        }
      }
    }
  }
}
