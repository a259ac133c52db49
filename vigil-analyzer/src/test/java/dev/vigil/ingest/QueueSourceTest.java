package dev.vigil.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.observe.Event;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicLong;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading a queue ahead of the sink, each event with its index, and giving up when the reading
 * thread is interrupted or the sink fails.
 */
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

  private static boolean readingAhead() {
    return Thread.getAllStackTraces().keySet().stream()
        .anyMatch(t -> t.getName().equals("vigil-read-ahead") && t.isAlive());
  }

  /**
   * Whether the excerpts are decoded ahead of the sink on a thread of their own (while the sink
   * takes the first event, more than four batches wait to be decoded) or on the sink's thread (a
   * pass of watch), during each call {@link QueueSource#index()} names the excerpt of the event
   * handed over.
   */
  @org.junit.jupiter.params.ParameterizedTest
  @org.junit.jupiter.params.provider.ValueSource(booleans = {true, false})
  void eachEventIsHandedOverWithItsOwnExcerptsIndex(boolean ahead) {
    Path dir = queue(3_000);
    QueueSource source = new QueueSource(dir);
    List<long[]> seen = new ArrayList<>();
    boolean[] aheadAtFirst = {false};
    source.readThrough(
        Long.MAX_VALUE,
        T0.plusSeconds(60),
        null,
        -1,
        ahead,
        (ev, id, ref) -> {
          if (seen.isEmpty()) {
            aheadAtFirst[0] = readingAhead();
          }
          seen.add(new long[] {ev.event().ts().toEpochMilli() - T0.toEpochMilli(), source.index()});
        });
    assertEquals(ahead, aheadAtFirst[0], "a thread reading ahead");
    assertEquals(3_000, seen.size());
    long first = seen.get(0)[1];
    for (int i = 0; i < seen.size(); i++) {
      assertEquals(i, seen.get(i)[0]);
      assertEquals(first + i, seen.get(i)[1], "the index handed with event " + i);
    }
    assertEquals(first + 2_999, source.lastRead());
  }

  @Test
  void aSinkThatFailsStopsTheReadingThread() {
    Path dir = queue(5_000);
    AtomicLong seen = new AtomicLong();
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () ->
                new QueueSource(dir)
                    .read(
                        -1,
                        T0.plusSeconds(60),
                        null,
                        (ev, id, ref) -> {
                          if (seen.incrementAndGet() == 10) {
                            throw new IllegalStateException("bank full");
                          }
                        }));
    assertEquals("bank full", e.getMessage());
    assertEquals(10, seen.get());
    assertEquals(
        List.of(),
        Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().equals("vigil-read-ahead") && t.isAlive())
            .toList());
  }
}
