package dev.vigil.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.observe.Event;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicLong;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading a queue, and giving up when the reading thread is interrupted. */
class QueueSourceTest {
  private static final Instant T0 = Instant.parse("2026-11-24T10:00:00Z");

  @TempDir Path tmp;

  private Path queue(int events) {
    Path dir = tmp.resolve("queue");
    try (ChronicleQueue q = EventQueues.openForWriting(dir)) {
      ExcerptAppender a = q.createAppender();
      for (int i = 0; i < events; i++) {
        EventWire.append(a, Event.of(T0.plusMillis(i), "tool.t", "ok"));
      }
    }
    return dir;
  }

  /**
   * An interrupt ends a reading as soon as the queue's files are checked (an interruptible read),
   * or at the reading's next check, every 4,096 excerpts: never as a bad queue.
   */
  @Test
  void anInterruptedReadingEndsWithinAFewThousandExcerptsAndAnUninterruptedOneReadsAll() {
    Path dir = queue(10_000);
    AtomicLong seen = new AtomicLong();
    Thread.currentThread().interrupt();
    try {
      CancellationException e =
          assertThrows(
              CancellationException.class,
              () ->
                  new QueueSource(dir)
                      .read(-1, T0.plusSeconds(60), null, (ev, id, ref) -> seen.incrementAndGet()));
      assertTrue(e.getMessage().contains(dir.toString()), e.getMessage());
      assertTrue(seen.get() < 4096, "stopped at the first check at the latest: " + seen.get());
    } finally {
      Thread.interrupted();
    }
    seen.set(0);
    IngestStats stats =
        new QueueSource(dir)
            .read(-1, T0.plusSeconds(60), null, (ev, id, ref) -> seen.incrementAndGet());
    assertEquals(10_000, stats.eventsRead());
    assertEquals(10_000, seen.get());
  }
}
