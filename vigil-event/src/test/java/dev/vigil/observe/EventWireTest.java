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
  void readsTheLayoutsWrittenBefore() throws Exception {
    RandomEvents random = new RandomEvents(7, 0);
    for (int i = 0; i < 500; i++) {
      Event e = random.next();
      e = i % 2 == 0 ? e.withSession("s-" + i) : e;
      Event read = EventWire.read(older(e, EventWire.VERSION_WITH_NULLS));
      assertEquals(EventJson.write(e), EventJson.write(read));
      read = EventWire.read(older(e, EventWire.VERSION_WITHOUT_SESSION));
      assertNull(read.session());
      assertEquals(EventJson.write(e.withSession(null)), EventJson.write(read));
    }
  }

  @Test
  void anExcerptOfALaterLayoutVersionIsNotAnEventNamingTheVersionsRead() {
    Event e = new RandomEvents(11, 0).next();
    Bytes<?> now = Bytes.allocateElasticOnHeap();
    EventWire.write(now, e, EventWire.payloadBytes(e.payload()));
    byte[] later = now.toByteArray();
    later[1] = (byte) (EventWire.VERSION + 1);
    for (ThrowingReader reader :
        new ThrowingReader[] {EventWire::read, EventWire::readHeader, EventWire::peekTs}) {
      EventFormatException refused =
          assertThrows(EventFormatException.class, () -> reader.read(Bytes.wrapForRead(later)));
      assertEquals(EventDefect.NOT_AN_EVENT, refused.defect());
      assertEquals(
          "excerpt has layout version 4; this Vigil reads versions 1 to 3", refused.getMessage());
    }
  }

  /** One of the readings of an excerpt. */
  private interface ThrowingReader {
    Object read(Bytes<byte[]> excerpt) throws EventFormatException;
  }

  @Test
  void theCurrentLayoutIsSmallerThanTheOneBefore() throws Exception {
    Event e = new RandomEvents(9, 0).next();
    e =
        new Event(
            e.ts(), e.kind(), "ok", e.payload(), "robin", 7L, 4242L, "main", null, null, null);
    Bytes<?> now = Bytes.allocateElasticOnHeap();
    EventWire.write(now, e, EventWire.payloadBytes(e.payload()));
    // ok in the flags rather than as text (3 bytes), no null turn, call_id and session (6)
    assertEquals(older(e, EventWire.VERSION_WITH_NULLS).readRemaining() - 9, now.readRemaining());
    assertEquals(EventJson.write(e), EventJson.write(EventWire.read(now)));
  }

  /**
   * The event in layout version 2 (the strings before a flags byte for seq and pid, every other
   * string written, null as -1), or version 1 (the same without session).
   */
  private static Bytes<?> older(Event e, byte version) {
    Bytes<?> out = Bytes.allocateElasticOnHeap();
    out.writeByte(EventWire.MAGIC);
    out.writeByte(version);
    out.writeStopBit(e.ts().getEpochSecond());
    out.writeStopBit(e.ts().getNano());
    out.writeUtf8(e.kind());
    out.writeUtf8(e.status());
    out.writeUtf8(e.agent());
    out.writeByte((byte) ((e.seq() != null ? 1 : 0) | (e.pid() != null ? 2 : 0)));
    if (e.seq() != null) {
      out.writeStopBit(e.seq());
    }
    if (e.pid() != null) {
      out.writeStopBit(e.pid());
    }
    out.writeUtf8(e.thread());
    out.writeUtf8(e.turn());
    out.writeUtf8(e.callId());
    if (version == EventWire.VERSION_WITH_NULLS) {
      out.writeUtf8(e.session());
    }
    byte[] payload = EventWire.payloadBytes(e.payload());
    out.writeStopBit(payload.length);
    out.write(payload);
    return out;
  }
}
