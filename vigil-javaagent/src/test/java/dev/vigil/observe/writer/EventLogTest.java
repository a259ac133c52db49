package dev.vigil.observe.writer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.vigil.it.QueueTally;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import dev.vigil.observe.agent.AgentConfig;
import dev.vigil.observe.agent.TimeSource;
import dev.vigil.observe.capture.CapturedCall;
import dev.vigil.observe.capture.Role;
import dev.vigil.observe.capture.Site;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The queue's appends with pages written ahead of them ({@link PagesAhead}): every event reads back
 * whole and in order, its own and another process's alike, however many fills happened between
 * them.
 */
class EventLogTest {
  private static final Site TOOL =
      new Site(0, Role.TOOL, "demo.Tools", "work", List.of("i"), "work", "tool.work");

  /** Enough events of {@link #call} to take the queue past several fills. */
  private static final int MANY = 150_000;

  @TempDir Path tmp;

  private static EventLog log(Path queue) {
    Properties p = new Properties();
    p.setProperty("vigil.queue.dir", queue.toString());
    AgentConfig config = AgentConfig.load(null, p, Map.of(), line -> {});
    return new EventLog(queue, new EventAssembler(config, TimeSource.SYSTEM), 42);
  }

  private static CapturedCall call(int i) {
    long start = 5_000_000_000L + i;
    return new CapturedCall(
        TOOL,
        start,
        start + 1_000,
        "writer",
        new Object[] {i},
        "done " + i,
        null,
        null,
        null,
        null,
        null,
        null,
        false,
        null);
  }

  /** Whether there is room for zeros ahead where the test's files are. */
  private boolean roomForZeros() throws IOException {
    return Files.getFileStore(tmp).getUsableSpace() >= PagesAhead.MIN_FREE + (256L << 20);
  }

  @Test
  void eventsAppendedAcrossManyFillsAheadReadBackWholeAndInOrder() throws Exception {
    Path queue = tmp.resolve("queue");
    EventLog log = log(queue);
    assertTrue(log.open());
    for (int i = 0; i < MANY; i++) {
      log.append(call(i), "test");
    }
    long filled = log.filledAhead();
    log.close();

    if (roomForZeros()) {
      assertTrue(filled > PagesAhead.LEAD, "the lead built up and kept: " + filled);
    }
    int[] next = {0};
    try (ChronicleQueue q = EventQueues.openForReading(queue)) {
      ExcerptTailer tailer = q.createTailer();
      for (Event e = EventWire.next(tailer); e != null; e = EventWire.next(tailer)) {
        int i = next[0]++;
        assertEquals(i, e.payload().path("args").path("i").asInt(), "event " + i);
        assertEquals("done " + i, e.payload().path("result").asText(), "event " + i);
        assertEquals(i + 1L, e.seq(), "event " + i);
      }
    }
    assertEquals(MANY, next[0]);
  }

  /**
   * Another process appends into the pages this one filled ahead, then this one appends again and
   * fills on from past the other's events: nothing of either is overwritten.
   */
  @Test
  void anotherProcessAppendingIntoTheFilledPagesLosesNothing() throws Exception {
    Path queue = tmp.resolve("queue");
    EventLog log = log(queue);
    assertTrue(log.open());
    log.append(call(0), "test");
    Instant now = Instant.now();
    try (ChronicleQueue other = EventQueues.openForWriting(queue, now::toEpochMilli);
        ExcerptAppender a = other.createAppender()) {
      for (int i = 0; i < MANY / 2; i++) {
        EventWire.append(a, otherEvent(now, i));
      }
    }
    for (int i = 1; i < MANY; i++) {
      log.append(call(i), "test");
    }
    log.close();

    QueueTally tally = QueueTally.of(queue);
    assertEquals(MANY + MANY / 2, tally.events());
    assertEquals(Long.valueOf(MANY), tally.perThread().get("writer"));
    assertEquals(Long.valueOf(MANY / 2), tally.perThread().get("other-thread"));
    try (ChronicleQueue q = EventQueues.openForReading(queue)) {
      ExcerptTailer tailer = q.createTailer();
      int mine = 0;
      int others = 0;
      for (Event e = EventWire.next(tailer); e != null; e = EventWire.next(tailer)) {
        if ("other-thread".equals(e.thread())) {
          assertEquals(others++, e.payload().path("n").asInt(), "the other's event " + others);
        } else {
          assertEquals(mine++, e.payload().path("args").path("i").asInt(), "event " + mine);
        }
      }
    }
  }

  private static Event otherEvent(Instant at, int n) {
    return new Event(
        at,
        "tool.other",
        "ok",
        JsonNodeFactory.instance.objectNode().put("n", n),
        "other",
        n + 1L,
        7L,
        "other-thread",
        null,
        null,
        null);
  }
}
