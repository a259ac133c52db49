package dev.vigil.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

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

class EventWireTest {
  @TempDir
  Path dir;

  @Test
  void roundTripsRandomEventsExactlyThroughARealQueue() throws Exception {
    RandomEvents random = new RandomEvents(7, 400);
    List<Event> written = new ArrayList<>();
    try (ChronicleQueue q = EventQueues.openForWriting(dir)) {
      ExcerptAppender appender = q.createAppender();
      for (int i = 0; i < 2_000; i++) {
        Event e = random.next();
        written.add(e);
        EventWire.append(appender, e);
      }
    }
    try (ChronicleQueue q = EventQueues.openForReading(dir)) {
      ExcerptTailer tailer = q.createTailer();
      for (Event expected : written) {
        Event actual = EventWire.next(tailer);
        assertNotNull(actual);
        assertEquals(EventJson.write(expected), EventJson.write(actual));
        assertEquals(expected.ts(), actual.ts());
        assertEquals(expected.seq(), actual.seq());
      }
      assertNull(EventWire.next(tailer));
    }
  }

  @Test
  void peeksTheTimestampWithoutMovingTheReadPosition() throws Exception {
    Event e = new RandomEvents(3, 0).next();
    Bytes<?> bytes = Bytes.allocateElasticOnHeap();
    EventWire.write(bytes, e, EventWire.payloadBytes(e.payload()));
    long position = bytes.readPosition();
    assertEquals(e.ts(), EventWire.peekTs(bytes));
    assertEquals(position, bytes.readPosition());
    assertEquals(EventJson.write(e), EventJson.write(EventWire.read(bytes)));
  }

  @Test
  void rejectsExcerptsNotWrittenByVigilAndMovesPastThem() throws Exception {
    Event good = new RandomEvents(5, 0).next();
    try (ChronicleQueue q = EventQueues.openForWriting(dir)) {
      ExcerptAppender appender = q.createAppender();
      try (DocumentContext dc = appender.writingDocument()) {
        dc.wire().bytes().writeUtf8("hello from someone else");
      }
      EventWire.append(appender, good);
    }
    try (ChronicleQueue q = EventQueues.openForReading(dir)) {
      ExcerptTailer tailer = q.createTailer();
      EventFormatException e = assertThrows(EventFormatException.class, () -> EventWire.next(tailer));
      assertEquals(EventDefect.NOT_AN_EVENT, e.defect());
      assertEquals(EventJson.write(good), EventJson.write(EventWire.next(tailer)));
    }
  }
}
