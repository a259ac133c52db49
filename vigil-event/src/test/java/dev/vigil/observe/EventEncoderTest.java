package dev.vigil.observe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The agent's encoder writes the {@link EventWire} layout: every field reads back, byte for byte as
 * written.
 */
class EventEncoderTest {
  @TempDir Path dir;

  private static void encode(EventEncoder encoder, Event e) {
    encoder.begin().payload().tree(e.payload());
    Instant ts = e.ts();
    encoder.head(
        ts.getEpochSecond(),
        ts.getNano(),
        e.kind(),
        e.status(),
        e.agent(),
        e.pid() == null ? -1 : e.pid(),
        e.thread(),
        e.turn(),
        e.callId(),
        e.session());
  }

  private static Event withSeq(Event e, long seq) {
    return e.withOrigin(e.agent(), seq, e.pid(), e.thread());
  }

  @Test
  void everyFieldRoundTripsThroughARealQueue() throws Exception {
    RandomEvents random = new RandomEvents(13, 300);
    EventEncoder encoder = new EventEncoder();
    List<Event> written = new ArrayList<>();
    try (ChronicleQueue q = EventQueues.openForWriting(dir)) {
      ExcerptAppender appender = q.createAppender();
      for (int i = 0; i < 2_000; i++) {
        Event e = withSeq(random.next(), i + 1L);
        written.add(e);
        encode(encoder, e);
        try (DocumentContext dc = appender.writingDocument()) {
          encoder.writeTo(dc.wire().bytes(), e.seq());
        }
      }
    }
    try (ChronicleQueue q = EventQueues.openForReading(dir)) {
      ExcerptTailer tailer = q.createTailer();
      for (Event expected : written) {
        Event actual = EventWire.next(tailer);
        assertEquals(expected, actual);
        assertEquals(EventJson.write(expected), EventJson.write(actual));
      }
      assertNull(EventWire.next(tailer));
    }
  }

  @Test
  void theHeadIsByteForByteEventWiresOwn() {
    RandomEvents random = new RandomEvents(17, 0);
    EventEncoder encoder = new EventEncoder();
    Event previous = random.next();
    for (int i = 0; i < 2_000; i++) {
      Event e = random.next();
      e = withSeq(e, i % 3 == 0 ? Long.MAX_VALUE - i : i);
      if (i % 5 == 0) {
        e = e.withOrigin("a\uD83D\uDE00\uD800z", e.seq(), e.pid(), "thread \uDC00 é");
      }
      if (i % 7 == 0) {
        e = e.withOrigin(e.agent(), e.seq(), e.pid(), "a long thread name, " + "ü".repeat(200));
      }
      if (i % 2 == 0) { // the same strings as the event before, as a tool's events have
        e =
            new Event(
                e.ts(),
                previous.kind(),
                previous.status(),
                e.payload(),
                previous.agent(),
                e.seq(),
                e.pid(),
                e.thread(),
                e.turn(),
                e.callId(),
                e.session());
      }
      previous = e;
      encode(encoder, e);
      Bytes<?> ours = Bytes.allocateElasticOnHeap();
      encoder.writeTo(ours, e.seq());
      Bytes<?> theirs = Bytes.allocateElasticOnHeap();
      EventWire.write(theirs, e, encoder.payload().toByteArray());
      assertArrayEquals(theirs.toByteArray(), ours.toByteArray(), "event " + i);
      if (e.seq() >= 0) {
        assertArrayEquals(ours.toByteArray(), encoder.toBytes(e.seq()), "as bytes, event " + i);
      }
    }
  }

  @Test
  void anEncoderIsReusedFromOneEventToTheNext() throws Exception {
    EventEncoder encoder = new EventEncoder();
    Event big = withSeq(new RandomEvents(19, 1).next(), 1);
    Event small = withSeq(Event.of(big.ts(), "tool.x", "ok"), 2);
    for (Event e : List.of(big, small, big)) {
      encode(encoder, e);
      Bytes<?> bytes = Bytes.allocateElasticOnHeap();
      encoder.writeTo(bytes, e.seq());
      assertEquals(e, EventWire.read(bytes));
    }
  }

  @Test
  void interleavedThreadsAndPidsEachGetTheirOwnNameBackEvenWhenTheyShareASlot() {
    EventEncoder encoder = new EventEncoder();
    Event base = withSeq(new RandomEvents(23, 1).next(), 1);
    List<String> threads = new ArrayList<>();
    for (int t = 0; t < 80; t++) { // more threads than the encoder keeps, so that some share a slot
      threads.add("caller-" + t);
    }
    for (int i = 0; i < 2_000; i++) {
      String thread = threads.get((i * 7) % threads.size());
      long pid = i % 11 == 0 ? -1 : i % 13 == 0 ? 99 : 4242;
      Event e =
          new Event(
              base.ts(),
              base.kind(),
              base.status(),
              base.payload(),
              base.agent(),
              i + 1L,
              pid < 0 ? null : pid,
              i % 17 == 0 ? null : thread,
              base.turn(),
              base.callId(),
              base.session());
      encode(encoder, e);
      Bytes<?> ours = Bytes.allocateElasticOnHeap();
      encoder.writeTo(ours, e.seq());
      Bytes<?> theirs = Bytes.allocateElasticOnHeap();
      EventWire.write(theirs, e, encoder.payload().toByteArray());
      assertArrayEquals(theirs.toByteArray(), ours.toByteArray(), "event " + i);
    }
  }
}
