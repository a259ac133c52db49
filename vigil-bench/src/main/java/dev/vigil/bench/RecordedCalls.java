package dev.vigil.bench;

import dev.vigil.observe.Event;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.SpillImport;
import dev.vigil.observe.TailerEvents;
import java.nio.file.Files;
import java.nio.file.Path;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;

/**
 * What Vigil recorded in a queue during a start-up figure, so that the figure is known to include
 * the recording: the tool-call events of one kind, read back through the same codec the analyzer
 * uses.
 */
final class RecordedCalls {
  private RecordedCalls() {}

  /**
   * Events of {@code kind} in the queue at {@code dir} (0 when there is no queue), its spill files
   * imported first, as the analyzer does: a launch that ends within half a second of its tool call
   * spills it.
   */
  static int count(Path dir, String kind) throws EventFormatException {
    SpillImport.importPending(dir);
    if (!Files.isRegularFile(dir.resolve(EventQueues.METADATA_FILE))) {
      return 0;
    }
    int n = 0;
    try (ChronicleQueue queue = EventQueues.openForReading(dir);
        ExcerptTailer tailer = queue.createTailer()) {
      TailerEvents events = new TailerEvents(tailer);
      for (Event e = events.next(); e != null; e = events.next()) {
        if (e.kind().equals(kind)) {
          n++;
        }
      }
    }
    return n;
  }
}
