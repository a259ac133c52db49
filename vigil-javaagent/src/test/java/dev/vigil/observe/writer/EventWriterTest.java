package dev.vigil.observe.writer;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.vigil.it.ChildJvm;
import dev.vigil.it.QueueTally;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import dev.vigil.observe.ExcerptEvents;
import dev.vigil.observe.SpillFiles;
import dev.vigil.observe.SpillImport;
import dev.vigil.observe.TailerEvents;
import dev.vigil.observe.agent.AgentConfig;
import dev.vigil.observe.agent.TimeSource;
import dev.vigil.observe.capture.CapturedCall;
import dev.vigil.observe.capture.Role;
import dev.vigil.observe.capture.Site;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.impl.RollingChronicleQueue;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The writer's hand-off when it is full: the calling thread appends its own event through an
 * appender of its own, so none is lost however far the writer falls behind, and {@code seq} stays
 * strictly increasing in queue order; an event is lost only when writing really fails.
 */
class EventWriterTest {
  private static final Site TOOL =
      new Site(0, Role.TOOL, "demo.Tools", "work", List.of("i"), "work", "tool.work");

  @TempDir Path tmp;

  private static EventWriter writer(Path queue, int capacity) {
    return writer(queue, capacity, TimeSource.SYSTEM);
  }

  private static EventWriter writer(Path queue, int capacity, TimeSource time) {
    return writer(queue, capacity, time, new Properties());
  }

  /** A writer as {@link #writer(Path, int, TimeSource)} makes it, with more properties. */
  private static EventWriter writer(Path queue, int capacity, TimeSource time, Properties more) {
    Properties p = new Properties();
    p.putAll(more);
    p.setProperty("vigil.queue.dir", queue.toString());
    p.setProperty("vigil.agent.name", "test");
    return new EventWriter(AgentConfig.load(null, p, Map.of(), line -> {}), capacity, time);
  }

  private static CapturedCall call(int i) {
    long start = 5_000_000_000L + i; // a monotonic clock reading, as the advice takes it
    return Calls.returned(TOOL, start, start + 1_000, Thread.currentThread().getName(), "done", i);
  }

  /** Threads that each submit {@code calls} calls, started and parked in the writer or finished. */
  private static List<Thread> callers(EventWriter writer, int threads, int calls) {
    List<Thread> all = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      Thread th =
          new Thread(
              () -> {
                for (int i = 0; i < calls; i++) {
                  writer.submit(call(i));
                }
              },
              "caller-" + t);
      all.add(th);
      th.start();
    }
    return all;
  }

  @Test
  void callersThatFindTheHandOffFullWaitForTheQueueThenAppendTheirOwnEventsAndNoneIsLost()
      throws Exception {
    Path queue = tmp.resolve("queue");
    EventWriter writer = writer(queue, 1);
    writer.submit(call(-1)); // fills the hand-off; the writer is not running yet
    List<Thread> callers = callers(writer, 16, 2_000);
    // every caller found the hand-off full and waits for the writer's first attempt to open the
    // queue
    await().atMost(Duration.ofSeconds(30)).until(() -> writer.waitingForOpen() == 16);
    writer.start();
    for (Thread t : callers) {
      t.join();
    }
    writer.shutdown(60_000);

    assertEquals(0, writer.lost());
    assertTrue(
        writer.appendedByCallers() >= 16,
        "each caller appended at least its first event itself: " + writer.appendedByCallers());
    QueueTally tally = QueueTally.of(queue);
    assertEquals(32_001, tally.events());
    assertNull(tally.seqProblem(), "seq strictly increasing in queue order");
    for (int t = 0; t < 16; t++) {
      assertEquals(2_000L, tally.perThread().get("caller-" + t));
    }
  }

  @Test
  void sixteenThreadsOutrunningTheWriterLoseNothing() throws Exception {
    Path queue = tmp.resolve("queue");
    EventWriter writer = writer(queue, EventWriter.CAPACITY);
    writer.start();
    for (Thread t : callers(writer, 16, 20_000)) {
      t.join();
    }
    writer.shutdown(120_000);

    QueueTally tally = QueueTally.of(queue);
    String seen =
        "lost "
            + writer.lost()
            + ", appended by callers "
            + writer.appendedByCallers()
            + ", in the queue "
            + tally;
    assertEquals(0, writer.lost(), seen);
    assertEquals(320_000, tally.events(), seen);
    assertNull(tally.seqProblem(), "seq strictly increasing in queue order");
    assertEquals(16, tally.perThread().size());
    tally.perThread().values().forEach(n -> assertEquals(20_000L, n));
  }

  /**
   * Once the queue is open the hand-off takes {@link EventWriter#OPEN_CAPACITY} calls, not {@link
   * EventWriter#CAPACITY}: a caller that finds it full waits for room while the writer is held, and
   * goes on once the writer takes calls again; none is lost.
   */
  @Test
  void onceTheQueueIsOpenTheHandOffTakesOpenCapacityCallsAndACallerWaitsForRoom() throws Exception {
    Path queue = tmp.resolve("queue");
    CountDownLatch gate = new CountDownLatch(1);
    AtomicBoolean holdWriter = new AtomicBoolean();
    AtomicBoolean writerHeld = new AtomicBoolean();
    // the writer reads the wall clock again for a call more than ten seconds after its last
    // reading (WallClock): once armed, that reading holds it until the gate opens
    TimeSource holding =
        new TimeSource() {
          @Override
          public long nanoTime() {
            return 5_000_000_000L;
          }

          @Override
          public Instant now() {
            if (Thread.currentThread().getName().equals("vigil-writer")
                && holdWriter.compareAndSet(true, false)) {
              writerHeld.set(true);
              try {
                gate.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            }
            return Instant.parse("2026-12-01T12:00:00Z");
          }
        };
    Properties openAtOnce = new Properties();
    openAtOnce.setProperty("vigil.queue.open-delay-ms", "0"); // the held clock never reaches 500 ms
    EventWriter writer = writer(queue, EventWriter.CAPACITY, holding, openAtOnce);
    writer.start();
    writer.submit(call(0));
    await()
        .atMost(Duration.ofSeconds(30))
        .ignoreException(IllegalArgumentException.class) // no queue until the writer opens it
        .until(() -> QueueTally.of(queue).events() == 1);
    holdWriter.set(true);
    long later = 5_000_000_000L + 20_000_000_000L;
    writer.submit(Calls.returned(TOOL, later, later + 1_000, "main", "done", -1));
    await().atMost(Duration.ofSeconds(30)).untilTrue(writerHeld);

    int calls = EventWriter.OPEN_CAPACITY + 100;
    AtomicInteger handedOver = new AtomicInteger();
    Thread caller =
        new Thread(
            () -> {
              for (int i = 1; i <= calls; i++) {
                writer.submit(call(i));
                handedOver.incrementAndGet();
              }
            },
            "caller-0");
    caller.start();
    await()
        .atMost(Duration.ofSeconds(60))
        .until(
            () ->
                !caller.isAlive()
                    || (caller.getState() == Thread.State.TIMED_WAITING
                        && handedOver.get() >= EventWriter.OPEN_CAPACITY - 2));
    int whileHeld = handedOver.get();
    boolean waiting = caller.isAlive();
    gate.countDown();
    caller.join();
    writer.shutdown(60_000);

    assertTrue(waiting, "the caller waited for room; it had handed over " + whileHeld);
    // the hand-off held the calls handed over and the one or two the writer had taken
    assertTrue(
        whileHeld >= EventWriter.OPEN_CAPACITY - 2 && whileHeld < EventWriter.OPEN_CAPACITY,
        "handed over while the writer was held: " + whileHeld);
    assertEquals(0, writer.lost());
    assertEquals(0, writer.appendedByCallers());
    QueueTally tally = QueueTally.of(queue);
    assertEquals(calls + 2, tally.events());
    assertNull(tally.seqProblem(), "seq strictly increasing in queue order");
  }

  /**
   * Calls waiting together are written as batches (docs/DESIGN.md#the-queue): a run of the writer
   * at most {@link ExcerptEvents#MAX_EVENTS} events an excerpt, in {@code seq} order, none lost; a
   * call alone is an excerpt of one event.
   */
  @Test
  void callsWaitingTogetherAreWrittenAsBatchesInSeqOrderAndACallAloneAsItsOwnExcerpt()
      throws Exception {
    Path queue = tmp.resolve("queue");
    EventWriter writer = writer(queue, EventWriter.CAPACITY);
    for (int i = 1; i <= 600; i++) {
      writer.submit(call(i)); // the writer is not running yet: they wait together
    }
    writer.start();
    await()
        .atMost(Duration.ofSeconds(30))
        .ignoreException(IllegalArgumentException.class) // no queue until the writer opens it
        .until(() -> QueueTally.of(queue).events() == 600);
    writer.submit(call(601));
    writer.shutdown(30_000);

    assertEquals(0, writer.lost());
    QueueTally tally = QueueTally.of(queue);
    assertEquals(601, tally.events());
    assertNull(tally.seqProblem(), "seq strictly increasing in queue order");
    List<Excerpt> excerpts = excerpts(queue);
    assertEquals(
        List.of(256, 256, 88, 1),
        excerpts.stream().map(e -> e.seqs().size()).toList(),
        "runs of the writer");
    assertEquals(List.of(true, true, true, false), excerpts.stream().map(Excerpt::batch).toList());
    assertEquals(
        List.of(ExcerptEvents.DELTA_BATCH, ExcerptEvents.DELTA_BATCH, ExcerptEvents.DELTA_BATCH),
        excerpts.subList(0, 3).stream().map(Excerpt::layout).toList(),
        "one site's calls after a batch's first are written as their differences");
  }

  /**
   * An excerpt of the queue: its events' {@code seq}s, whether it is a batch, and its second byte
   * (a batch's layout).
   */
  private record Excerpt(List<Long> seqs, boolean batch, byte layout) {}

  /** The excerpts of the queue in {@code dir}, in order. */
  private static List<Excerpt> excerpts(Path dir) throws Exception {
    List<Excerpt> out = new ArrayList<>();
    try (ChronicleQueue q = EventQueues.openForReading(dir)) {
      ExcerptTailer tailer = q.createTailer();
      ExcerptEvents events = new ExcerptEvents();
      while (true) {
        try (DocumentContext dc = tailer.readingDocument()) {
          if (!dc.isPresent()) {
            return out;
          }
          Bytes<?> bytes = dc.wire().bytes();
          byte layout = bytes.readByte(bytes.readPosition() + 1);
          List<Long> seqs = new ArrayList<>();
          for (events.start(bytes); events.next(); ) {
            seqs.add(EventWire.read(events.event()).seq());
          }
          out.add(new Excerpt(seqs, events.isBatch(), layout));
        }
      }
    }
  }

  @Test
  void aWriterDeniedWhatItRunsBeforeOpeningCountsEveryEventAsLostWithItsReasonAndNeverThrows() {
    Path queue = tmp.resolve("queue");
    Properties p = new Properties();
    p.setProperty("vigil.queue.dir", queue.toString());
    p.setProperty("vigil.queue.open-delay-ms", "0"); // the first event opens the queue
    // room for every call: a full hand-off would have the caller append its own event instead
    EventWriter writer = new EventWriter(AgentConfig.load(null, p, Map.of(), line -> {}), 16);
    AtomicInteger runs = new AtomicInteger();
    writer.start(
        () -> {
          runs.incrementAndGet();
          throw new IllegalStateException("no module access");
        });
    for (int i = 0; i < 5; i++) {
      writer.submit(call(i));
    }
    await().atMost(Duration.ofSeconds(30)).until(() -> writer.lost() == 5);
    writer.submit(call(5));
    writer.shutdown(10_000);
    assertEquals(6, writer.lost());
    assertEquals(1, runs.get(), "run once, before the first opening");
    assertTrue(writer.lostReason().contains("could not open"), writer.lostReason());
    assertTrue(writer.lostReason().contains("no module access"), writer.lostReason());
    assertTrue(Files.notExists(queue), "nothing written, not even a spill file");
  }

  @Test
  void whatRunsBeforeTheFirstOpeningIsNotRunByAProcessThatOnlySpills() {
    Path queue = tmp.resolve("queue");
    Properties p = new Properties();
    p.setProperty("vigil.queue.dir", queue.toString());
    p.setProperty("vigil.queue.open-delay-ms", "600000"); // the exit comes first
    EventWriter writer = new EventWriter(AgentConfig.load(null, p, Map.of(), line -> {}), 4);
    AtomicInteger runs = new AtomicInteger();
    writer.start(() -> runs.incrementAndGet());
    writer.submit(call(0));
    writer.shutdown(10_000); // the event is spilled
    assertEquals(0, runs.get());
    assertEquals(0, writer.lost());
    assertTrue(SpillFiles.pending(queue), "spilled");
  }

  @Test
  void whenTheQueueCannotBeWrittenTheCallersEventsAreCountedAsLost() throws Exception {
    Path queue = Files.writeString(tmp.resolve("queue"), "a file, not a directory");
    EventWriter writer = writer(queue, 1);
    writer.submit(call(-1));
    List<Thread> callers = callers(writer, 4, 10);
    await().atMost(Duration.ofSeconds(30)).until(() -> writer.waitingForOpen() == 4);
    writer.start();
    for (Thread t : callers) {
      t.join();
    }
    await().atMost(Duration.ofSeconds(30)).until(() -> writer.lost() == 41);
    writer.shutdown(10_000);
    assertEquals(0, writer.appendedByCallers());
  }

  @Test
  void aCallerThatFindsTheHandOffFullGivesUpWhenTheQueueIsNotOpenedInTimeAndTheNextDoesNotWait()
      throws Exception {
    SetTime time = new SetTime();
    EventWriter writer =
        writer(tmp.resolve("queue"), 1, time); // never started: the queue is never opened
    writer.submit(call(-1));
    Thread caller = new Thread(() -> writer.submit(call(0)), "caller");
    caller.start();
    await().atMost(Duration.ofSeconds(30)).until(() -> writer.waitingForOpen() == 1);
    assertEquals(0, writer.lost(), "still waiting: no time has passed on its clock");

    time.advanceMillis(EventWriter.OPEN_WAIT_MS + 1);
    caller.join();
    assertEquals(1, writer.lost());
    writer.submit(call(1));
    assertEquals(2, writer.lost(), "once overdue, a caller loses its event without waiting");
    assertEquals(0, writer.waitingForOpen());
  }

  /** A clock that moves only when the test moves it. */
  private static final class SetTime implements TimeSource {
    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

    void advanceMillis(long ms) {
      nanos.addAndGet(ms * 1_000_000L);
    }

    @Override
    public long nanoTime() {
      return nanos.get();
    }

    @Override
    public Instant now() {
      return Instant.ofEpochSecond(1_790_000_000L).plusNanos(nanos.get());
    }
  }

  @Test
  void aWriterThatEndsBeforeItsFirstEventHasWaitedSpillsItAndTheNextOpeningImportsItOnce()
      throws Exception {
    Path queue = tmp.resolve("queue");
    EventWriter first = writer(queue, 16, new SetTime()); // its events never wait long enough
    first.start();
    first.submit(call(1));
    first.submit(call(2));
    first.shutdown(10_000);
    assertEquals(0, first.lost());
    assertTrue(Files.notExists(queue.resolve("metadata.cq4t")), "the queue was never opened");
    assertTrue(SpillFiles.pending(queue), "its events were spilled");

    Path other = tmp.resolve("other-queue");
    EventWriter idle = writer(other, 16);
    idle.start();
    idle.shutdown(10_000);
    assertTrue(Files.notExists(other), "a writer given nothing to write opens no queue");

    EventWriter second = writer(queue, 16);
    second.start();
    second.submit(call(3));
    await().atMost(Duration.ofSeconds(30)).until(() -> !SpillFiles.pending(queue));
    second.shutdown(10_000);
    assertEquals(0, second.lost());
    List<Long> results = new ArrayList<>();
    List<Long> seqs = new ArrayList<>();
    for (Event e : ChildJvm.readQueue(queue)) {
      results.add(e.payload().at("/args/i").asLong());
      seqs.add(e.seq());
    }
    assertEquals(List.of(1L, 2L, 3L), results, "the spilled events once, before the next ones");
    assertEquals(List.of(1L, 2L, 1L), seqs, "each writer's own seq, as if never spilled");
  }

  @Test
  void aLongSpillIsCutIntoTheBatchesTheQueueWouldHaveHeld() throws Exception {
    Path queue = tmp.resolve("queue");
    EventWriter writer = writer(queue, EventWriter.CAPACITY, new SetTime());
    for (int i = 1; i <= 600; i++) {
      // fewer than OPEN_AT_CALLS: the queue waits for a clock that never moves
      writer.submit(call(i));
    }
    writer.start();
    writer.shutdown(30_000);
    assertEquals(0, writer.lost());
    assertTrue(Files.notExists(queue.resolve("metadata.cq4t")), "the queue was never opened");

    SpillImport.importPending(queue);
    List<Excerpt> excerpts = excerpts(queue);
    assertEquals(List.of(256, 256, 88), excerpts.stream().map(e -> e.seqs().size()).toList());
    assertEquals(
        LongStream.rangeClosed(1, 600).boxed().toList(),
        excerpts.stream().flatMap(e -> e.seqs().stream()).toList());
  }

  @Test
  void whenTheSpillFileCannotBeWrittenItsEventsAreCountedAsLost() throws Exception {
    Path notADirectory = Files.writeString(tmp.resolve("file"), "a file");
    EventWriter writer = writer(notADirectory.resolve("queue"), 16, new SetTime());
    writer.start();
    writer.submit(call(1));
    writer.submit(call(2));
    writer.shutdown(10_000);
    assertEquals(2, writer.lost());
  }

  /**
   * The writer appends with {@code writeBytes}, which finds the queue's last sequence number again
   * only when the file moved past its own last excerpt: an excerpt appended in between by another
   * queue on the same directory (as another process's) must still leave every excerpt its own
   * index, one after the other, each found again by it.
   */
  @Test
  void anExcerptAppendedByAnotherQueueInBetweenLeavesEveryExcerptItsOwnIndex() throws Exception {
    Path queue = tmp.resolve("queue");
    EventWriter writer = writer(queue, EventWriter.CAPACITY);
    writer.start();
    Instant day = firstEventWritten(writer, queue);
    // the other queue's clock reads a time of that day, so that both write the same day's file
    appendAsAnotherProcess(queue, day);
    writer.submit(call(2));
    writer.submit(call(3));
    writer.shutdown(30_000);

    assertEquals(0, writer.lost());
    List<Long> indexes = new ArrayList<>();
    List<String> firstThreads = new ArrayList<>(); // of each excerpt's first event
    List<String> threads = new ArrayList<>();
    try (ChronicleQueue q = EventQueues.openForReading(queue)) {
      ExcerptTailer tailer = q.createTailer();
      ExcerptEvents events = new ExcerptEvents();
      while (true) {
        try (DocumentContext dc = tailer.readingDocument()) {
          if (!dc.isPresent()) {
            break;
          }
          indexes.add(dc.index());
          Bytes<?> bytes = dc.wire().bytes();
          for (events.start(bytes); events.next(); ) {
            threads.add(EventWire.read(events.event()).thread());
            if (events.k() == 0) {
              firstThreads.add(threads.get(threads.size() - 1));
            }
          }
        }
      }
      assertEquals(
          List.of(
              Thread.currentThread().getName(),
              "other-thread",
              Thread.currentThread().getName(),
              Thread.currentThread().getName()),
          threads);
      for (int i = 1; i < indexes.size(); i++) {
        assertEquals(
            indexes.get(i - 1) + 1,
            indexes.get(i),
            "excerpt " + i + " follows the one before: " + indexes);
      }
      ExcerptTailer byIndex = q.createTailer();
      for (int i = 0; i < indexes.size(); i++) {
        assertTrue(byIndex.moveToIndex(indexes.get(i)), "index " + indexes.get(i) + " found");
        assertEquals(firstThreads.get(i), new TailerEvents(byIndex).next().thread());
      }
    }
  }

  /**
   * Another process on the same queue has moved it on to the next day's file (two agents, around
   * midnight): an event of the earlier day is still written, into the newest file, with its own
   * time.
   */
  @Test
  void anEventOfADayAnotherProcessHasMovedOnFromIsWrittenIntoTheNewestFile() throws Exception {
    Path queue = tmp.resolve("queue");
    EventWriter writer = writer(queue, EventWriter.CAPACITY);
    writer.start();
    Instant first = firstEventWritten(writer, queue);
    Instant nextDay = first.plus(Duration.ofDays(1));
    appendAsAnotherProcess(queue, nextDay);
    writer.submit(call(2));
    writer.shutdown(30_000);

    assertEquals(0, writer.lost());
    List<String> threads = new ArrayList<>();
    try (ChronicleQueue q = EventQueues.openForReading(queue)) {
      TailerEvents tailer = new TailerEvents(q.createTailer());
      for (Event e = tailer.next(); e != null; e = tailer.next()) {
        threads.add(e.thread());
      }
    }
    String me = Thread.currentThread().getName();
    assertEquals(List.of(me, "other-thread", me), threads);
  }

  /**
   * Has {@code writer} write its first event and gives the start of the day file it went into (the
   * day the writer's queue time gave, which is not the event's own when the machine started on
   * another day than today: the calls' monotonic times are from just after it started).
   */
  private static Instant firstEventWritten(EventWriter writer, Path queue) throws Exception {
    writer.submit(call(1));
    await()
        .atMost(Duration.ofSeconds(30))
        .ignoreException(IllegalArgumentException.class) // no queue until the writer opens it
        .until(() -> QueueTally.of(queue).events() == 1);
    try (RollingChronicleQueue q = (RollingChronicleQueue) EventQueues.openForReading(queue)) {
      return Instant.ofEpochMilli((long) q.lastCycle() * q.rollCycle().lengthInMillis());
    }
  }

  /**
   * Appends an event of thread {@code other-thread} through a queue of its own on the same
   * directory, at {@code at}.
   */
  private static void appendAsAnotherProcess(Path queue, Instant at) {
    try (ChronicleQueue other = EventQueues.openForWriting(queue, at::toEpochMilli);
        ExcerptAppender a = other.createAppender()) {
      EventWire.append(
          a,
          new Event(
              at,
              "tool.other",
              "ok",
              JsonNodeFactory.instance.objectNode(),
              "other",
              1L,
              7L,
              "other-thread",
              null,
              null,
              null));
    }
  }
}
