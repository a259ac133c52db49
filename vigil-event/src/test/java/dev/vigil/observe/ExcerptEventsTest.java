package dev.vigil.observe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExcerptEventsTest {
  @TempDir Path dir;

  private static List<Event> events(long seed, int n) {
    return new RandomEvents(seed, 5).next(n);
  }

  private static Bytes<?> batchOf(List<Event> events) {
    Bytes<?> b = Bytes.allocateElasticOnHeap();
    ExcerptEvents.writeBatchStart(b);
    for (Event e : events) {
      long slot = ExcerptEvents.beginEvent(b);
      EventWire.write(b, e, EventWire.payloadBytes(e.payload()));
      ExcerptEvents.endEvent(b, slot);
    }
    return b;
  }

  @Test
  void aBatchBuiltFromEventsBytesIsTheBatchTheWriterBuilds() {
    List<Event> written = events(3, 5);
    List<byte[]> each = new ArrayList<>();
    for (Event e : written) {
      Bytes<?> one = Bytes.allocateElasticOnHeap();
      EventWire.write(one, e, EventWire.payloadBytes(e.payload()));
      each.add(one.toByteArray());
    }
    assertArrayEquals(batchOf(written).toByteArray(), ExcerptEvents.batchOf(each));
  }

  @Test
  void aBatchGivesItsEventsInOrderEachAloneInTheBytesAndThenTheWholeExcerptAgain()
      throws Exception {
    List<Event> written = events(1, 7);
    Bytes<?> b = batchOf(written);
    long limit = b.readLimit();
    ExcerptEvents events = new ExcerptEvents().start(b);
    assertTrue(events.isBatch());
    List<Event> read = new ArrayList<>();
    List<Integer> places = new ArrayList<>();
    while (events.next()) {
      places.add(events.k());
      read.add(EventWire.read(b));
      assertEquals(0, b.readRemaining(), "the bytes end where the event ends");
    }
    assertEquals(written, read);
    assertEquals(List.of(0, 1, 2, 3, 4, 5, 6), places);
    assertEquals(limit, b.readLimit(), "the excerpt's limit is given back");
    assertFalse(events.next(), "and stays at the end");
  }

  @Test
  void anExcerptOfOneEventIsOneEventAtPlaceZero() throws Exception {
    Event e = events(2, 1).get(0);
    Bytes<?> b = Bytes.allocateElasticOnHeap();
    EventWire.write(b, e, EventWire.payloadBytes(e.payload()));
    ExcerptEvents events = new ExcerptEvents().start(b);
    assertFalse(events.isBatch());
    assertTrue(events.next());
    assertEquals(0, events.k());
    assertEquals(e, EventWire.read(b));
    assertFalse(events.next());
  }

  @Test
  void aBatchWithOneEventWrittenFromItsOnlyEventIsAnExcerptOfOneEvent() throws Exception {
    Event e = events(3, 1).get(0);
    Bytes<?> b = batchOf(List.of(e));
    b.readPosition(ExcerptEvents.onlyEvent());
    assertEquals(e, EventWire.read(b));
  }

  /** A reader of one event per excerpt refuses a batch as not an event, rather than misread it. */
  @Test
  void aReaderOfOneEventRefusesABatch() {
    Bytes<?> b = batchOf(events(4, 3));
    EventFormatException e = assertThrows(EventFormatException.class, () -> EventWire.read(b));
    assertEquals(EventDefect.NOT_AN_EVENT, e.defect());
    assertTrue(e.getMessage().contains("layout version 4"), e.getMessage());
  }

  @Test
  void aBrokenLengthSkipsTheRestOfTheBatchAfterTheEventsBeforeIt() throws Exception {
    List<Event> written = events(5, 3);
    Bytes<?> b = batchOf(written);
    // the second event's length: beyond the excerpt
    long second = ExcerptEvents.FIRST_EVENT + 4 + b.readInt(ExcerptEvents.FIRST_EVENT);
    b.writeInt(second, 1 << 30);
    ExcerptEvents events = new ExcerptEvents().start(b);
    assertTrue(events.next());
    assertEquals(written.get(0), EventWire.read(b));
    EventFormatException e = assertThrows(EventFormatException.class, events::next);
    assertTrue(e.getMessage().contains("broken length after its event 1"), e.getMessage());
    assertFalse(events.next());
  }

  @Test
  void aPlaceKeepsTheQueueOrderAndGivesBackItsExcerptAndItsPlaceInIt() {
    long index = (20_421L << 32) | 17;
    long a = ExcerptEvents.place(index, 255);
    long b = ExcerptEvents.place(index + 1, 0);
    assertTrue(a < b);
    assertEquals(index, ExcerptEvents.indexOf(a));
    assertEquals(255, ExcerptEvents.kOf(a));
    assertEquals(index + 1, ExcerptEvents.indexOf(b));
    assertEquals(0, ExcerptEvents.kOf(b));
    assertEquals(-1, ExcerptEvents.indexOf(-1));
    assertThrows(ArithmeticException.class, () -> ExcerptEvents.place(Long.MAX_VALUE / 2, 0));
  }

  /**
   * Through a real queue: batches and excerpts of one event in between are read in order, and a
   * reader that leaves a batch after its first event finds the next excerpt where it belongs.
   */
  @Test
  void aQueueOfBatchesAndSingleExcerptsIsReadInOrderWhereverAReaderLeavesABatch() throws Exception {
    List<Event> first = events(6, 4);
    Event single = events(7, 1).get(0);
    List<Event> second = events(8, 3);
    try (ChronicleQueue q = EventQueues.openForWriting(dir)) {
      ExcerptAppender appender = q.createAppender();
      ExcerptEvents.append(appender, first);
      EventWire.append(appender, single);
      ExcerptEvents.append(appender, second);
    }
    List<Event> all = new ArrayList<>(first);
    all.add(single);
    all.addAll(second);
    try (ChronicleQueue q = EventQueues.openForReading(dir)) {
      TailerEvents tailer = new TailerEvents(q.createTailer());
      List<Event> read = new ArrayList<>();
      for (Event e = tailer.next(); e != null; e = tailer.next()) {
        read.add(e);
      }
      assertEquals(all, read);

      ExcerptTailer t = q.createTailer();
      ExcerptEvents events = new ExcerptEvents();
      List<Event> firstOfEach = new ArrayList<>();
      while (true) {
        try (DocumentContext dc = t.readingDocument()) {
          if (!dc.isPresent()) {
            break;
          }
          Bytes<?> bytes = dc.wire().bytes();
          events.start(bytes);
          assertTrue(events.next());
          firstOfEach.add(EventWire.read(bytes)); // and leaves the rest of a batch unread
        }
      }
      assertEquals(List.of(first.get(0), single, second.get(0)), firstOfEach);
      assertNull(new TailerEvents(t).next());
    }
  }
}
