package dev.vigil.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
  @TempDir Path dir;

  @Test
  void aCycleFileOfZerosIsRefusedNamingItInsteadOfWaitedFor() throws Exception {
    try (ChronicleQueue q = EventQueues.openForWriting(dir)) {
      EventWire.append(q.createAppender(), new RandomEvents(3, 10).next());
    }
    Path zeros = dir.resolve("20991231F.cq4");
    Files.write(zeros, new byte[64 * 1024]);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> EventQueues.openForReading(dir));
    assertTrue(
        e.getMessage().contains(zeros.toString()) && e.getMessage().contains("has no header"),
        e.getMessage());
    Files.delete(zeros);
    try (ChronicleQueue q = EventQueues.openForReading(dir)) {
      assertNotNull(EventWire.next(q.createTailer()), "the rest is read once it is moved out");
    }
  }

  @Test
  void aCycleFileCutShortIsRefusedNamingItBeforeAnythingIsMapped() throws Exception {
    try (ChronicleQueue q = EventQueues.openForWriting(dir)) {
      EventWire.append(q.createAppender(), new RandomEvents(3, 10).next());
    }
    EventQueues.checkIsQueue(dir); // whole: accepted
    Path cycle;
    try (var files = Files.list(dir)) {
      cycle = files.filter(f -> f.toString().endsWith(".cq4")).findFirst().orElseThrow();
    }
    try (var channel = FileChannel.open(cycle, StandardOpenOption.WRITE)) {
      channel.truncate(60_000);
    }
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> EventQueues.openForReading(dir));
    assertTrue(
        e.getMessage().contains(cycle.toString())
            && e.getMessage().contains("cut short (60000 bytes"),
        e.getMessage());
  }

  /**
   * Cut at a page boundary, a cycle file has whole pages but not its events: refused naming it,
   * where reading on would have faulted past the file's end; cut after its events, it is read
   * whole.
   */
  @Test
  void aCycleFileCutAtAPageBoundaryInTheMiddleOfItsEventsIsRefusedNamingIt() throws Exception {
    RandomEvents random = new RandomEvents(5, 200);
    try (ChronicleQueue q = EventQueues.openForWriting(dir)) {
      ExcerptAppender appender = q.createAppender();
      for (int i = 0; i < 2_000; i++) {
        EventWire.append(appender, random.next());
      }
    }
    Path cycle;
    try (var files = Files.list(dir)) {
      cycle = files.filter(f -> f.toString().endsWith(".cq4")).findFirst().orElseThrow();
    }
    long whole = Files.size(cycle);
    try (var channel = FileChannel.open(cycle, StandardOpenOption.WRITE)) {
      channel.truncate(whole - 4096); // the pages after the events: nothing of them is lost
    }
    try (ChronicleQueue q = EventQueues.openForReading(dir)) {
      ExcerptTailer tailer = q.createTailer();
      int read = 0;
      while (EventWire.next(tailer) != null) {
        read++;
      }
      assertEquals(2_000, read);
    }
    try (var channel = FileChannel.open(cycle, StandardOpenOption.WRITE)) {
      channel.truncate(64 * 1024);
    }
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> EventQueues.openForReading(dir));
    assertTrue(
        e.getMessage().contains(cycle.toString())
            && e.getMessage().contains("is cut short (65536 bytes; its events reach byte"),
        e.getMessage());
  }

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
      EventFormatException e =
          assertThrows(EventFormatException.class, () -> EventWire.next(tailer));
      assertEquals(EventDefect.NOT_AN_EVENT, e.defect());
      assertEquals(EventJson.write(good), EventJson.write(EventWire.next(tailer)));
    }
  }

  @Test
  void readsTheLayoutWrittenBeforeSessionExisted() throws Exception {
    Event e = new RandomEvents(7, 0).next().withSession("s-9");
    Bytes<?> v2 = Bytes.allocateElasticOnHeap();
    EventWire.write(v2, e, EventWire.payloadBytes(e.payload()));
    byte[] all = v2.toByteArray();
    // Version 1 is version 2 without the session string: rebuild it from the same fields.
    Bytes<?> v1 = Bytes.allocateElasticOnHeap();
    v1.writeByte(EventWire.MAGIC);
    v1.writeByte(EventWire.VERSION_WITHOUT_SESSION);
    Bytes<?> body = Bytes.wrapForRead(all);
    body.readSkip(2);
    v1.writeStopBit(body.readStopBit());
    v1.writeStopBit(body.readStopBit());
    v1.writeUtf8(body.readUtf8());
    v1.writeUtf8(body.readUtf8());
    v1.writeUtf8(body.readUtf8());
    int flags = body.readByte();
    v1.writeByte((byte) flags);
    for (int bit : new int[] {1, 2}) {
      if ((flags & bit) != 0) {
        v1.writeStopBit(body.readStopBit());
      }
    }
    v1.writeUtf8(body.readUtf8());
    v1.writeUtf8(body.readUtf8());
    v1.writeUtf8(body.readUtf8());
    assertEquals("s-9", body.readUtf8());
    long length = body.readStopBit();
    v1.writeStopBit(length);
    byte[] payload = new byte[(int) length];
    body.read(payload);
    v1.write(payload);
    Event read = EventWire.read(v1);
    assertNull(read.session());
    assertEquals(EventJson.write(e.withSession(null)), EventJson.write(read));
  }
}
