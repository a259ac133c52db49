package dev.vigil.bench;

import dev.vigil.observe.EventQueues;
import java.nio.file.Path;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * The floor under the start-up figure ({@link StartupTimes#queueAloneMs}): a {@code main} that
 * prints {@link System#nanoTime()}, opens a Chronicle Queue for writing as Vigil's writer does,
 * appends one small excerpt, closes the queue and prints {@link System#nanoTime()} again. An agent
 * that writes a short process's tool call to a Chronicle Queue before the process exits cannot add
 * less than this.
 */
public final class QueueAlone {
  private QueueAlone() {}

  /** The one argument: the queue directory. */
  public static void main(String[] args) {
    System.out.println(System.nanoTime());
    try (ChronicleQueue queue = EventQueues.openForWriting(Path.of(args[0]))) {
      try (DocumentContext dc = queue.createAppender().writingDocument()) {
        dc.wire().bytes().writeLong(System.nanoTime());
      }
    }
    System.out.println(System.nanoTime());
  }
}
