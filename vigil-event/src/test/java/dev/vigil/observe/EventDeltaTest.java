package dev.vigil.observe;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import net.openhft.chronicle.bytes.Bytes;
import org.junit.jupiter.api.Test;

/**
 * A batch's events written as their differences from the event before read back byte for byte as
 * the encoder's whole events, and differences that are not well formed are refused as not an event.
 */
class EventDeltaTest {
  private static final String[] AGENTS = {"robin", "shop", "ünïcödé-agent"};
  private static final String[] THREADS = {"main", "pool-1-thread-1", "worker"};
  private static final byte[][] CONSTANTS = {
    concat(SmileOut.stringBytes("demo.robin.RobinTools"), SmileOut.stringBytes("setReminder")),
    concat(SmileOut.stringBytes("demo.shop.ShopTools"), SmileOut.stringBytes("checkout"))
  };

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] both = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, both, a.length, b.length);
    return both;
  }

  /**
   * The events of {@link #batches}: their whole bytes, and whether each was written as differences.
   */
  record Written(List<byte[]> whole, List<Boolean> differs, List<Bytes<?>> batches) {}

  /**
   * Encodes {@code n} events into batches of random sizes, as the agent's writer does: a tool call
   * in its short form with a call site's constant, or a random payload; agents, threads, kinds and
   * statuses from small sets, so that neighbours share some and not others.
   */
  static Written batches(long seed, int n) {
    SplittableRandom random = new SplittableRandom(seed);
    RandomEvents payloads = new RandomEvents(seed, 0);
    EventEncoder encoder = new EventEncoder();
    List<byte[]> whole = new ArrayList<>();
    List<Boolean> differs = new ArrayList<>();
    List<Bytes<?>> batches = new ArrayList<>();
    Bytes<?> batch = null;
    int left = 0;
    long second = 1_796_000_000L;
    for (int i = 0; i < n; i++) {
      if (left == 0) {
        batch = Bytes.allocateElasticOnHeap();
        ExcerptEvents.writeBatchStart(batch);
        batches.add(batch);
        left = 1 + random.nextInt(random.nextBoolean() ? 4 : ExcerptEvents.MAX_EVENTS);
      }
      boolean first = batch.writePosition() == ExcerptEvents.FIRST_EVENT;
      String kind = null;
      if (random.nextInt(4) == 0) {
        encoder.begin().payload().tree(payloads.next().payload());
        kind = random.nextBoolean() ? "tool.search" : "turn.user";
      } else {
        SmileOut p = encoder.begin().callPayload(CallPayload.ARGS | CallPayload.RESULT);
        p.startObject();
        p.name("q");
        p.string("weather in city " + random.nextInt(1000));
        p.endObject();
        p.string("sunny " + random.nextInt(100));
        p.number((long) random.nextInt(5000));
        encoder.constant(CONSTANTS[random.nextInt(8) == 0 ? 1 : 0]);
      }
      second += random.nextInt(20) == 0 ? 1 : 0;
      encoder.head(
          second,
          random.nextInt(1_000_000_000),
          kind,
          random.nextInt(10) == 0 ? "delivered" : "ok",
          AGENTS[random.nextInt(10) == 0 ? 1 + random.nextInt(2) : 0],
          random.nextInt(20) == 0 ? -1 : 4242,
          THREADS[random.nextInt(6) == 0 ? 1 + random.nextInt(2) : 0],
          random.nextInt(3) == 0 ? "t-" + i / 3 : null,
          null,
          random.nextInt(50) == 0 ? "s-1" : null);
      long seq = i + 1L;
      whole.add(encoder.toBytes(seq));
      long slot = ExcerptEvents.beginEvent(batch);
      boolean d = encoder.writeBatched(batch, seq, first);
      ExcerptEvents.endEvent(batch, slot, d, 0);
      differs.add(d);
      left--;
    }
    return new Written(whole, differs, batches);
  }

  @Test
  void aBatchsEventsWrittenAsDifferencesReadBackByteForByte() throws Exception {
    Written w = batches(7, 3_000);
    int k = 0;
    int batchesOfDifferences = 0;
    long wholeBytes = 0;
    long written = 0;
    ExcerptEvents events = new ExcerptEvents();
    for (Bytes<?> batch : w.batches()) {
      written += batch.readRemaining();
      batchesOfDifferences += batch.readByte(1) == ExcerptEvents.DELTA_BATCH ? 1 : 0;
      events.start(batch);
      int place = 0;
      while (events.next()) {
        assertEquals(place++, events.k());
        byte[] expected = w.whole().get(k);
        wholeBytes += expected.length;
        Bytes<?> event = events.event();
        byte[] actual = new byte[(int) event.readRemaining()];
        event.read(actual);
        assertArrayEquals(expected, actual, "event " + k);
        assertEquals(
            EventJson.write(EventWire.read(Bytes.wrapForRead(expected))),
            EventJson.write(EventWire.read(Bytes.wrapForRead(actual))));
        assertFalse(w.differs().get(k) && place == 1, "a batch's first event is whole");
        k++;
      }
    }
    assertEquals(w.whole().size(), k, "every event read");
    long differing = w.differs().stream().filter(d -> d).count();
    assertTrue(differing > k / 2, differing + " of " + k + " written as differences");
    assertTrue(batchesOfDifferences > 0);
    assertTrue(written < wholeBytes, written + " bytes against " + wholeBytes + " whole");
  }

  @Test
  void aBatchWithoutDifferencesKeepsTheLayoutOfABatch() throws Exception {
    EventEncoder encoder = new EventEncoder();
    Bytes<?> batch = Bytes.allocateElasticOnHeap();
    ExcerptEvents.writeBatchStart(batch);
    for (int i = 0; i < 3; i++) { // every event a different agent: nothing to copy but the start
      encoder.begin().payload().tree(new RandomEvents(i, 0).next().payload());
      encoder.head(1_796_000_000L, i, "tool.x", "ok", AGENTS[i], -1, null, null, null, null);
      long slot = ExcerptEvents.beginEvent(batch);
      assertFalse(encoder.writeBatched(batch, i + 1, i == 0));
      ExcerptEvents.endEvent(batch, slot, false, 0);
    }
    assertEquals(ExcerptEvents.BATCH, batch.readByte(1), "readable by an analyzer of layout 4");
  }

  @Test
  void differencesThatAreNotWellFormedAreRefusedAsNotAnEvent() throws Exception {
    Written w = batches(11, 600);
    SplittableRandom random = new SplittableRandom(11);
    ExcerptEvents events = new ExcerptEvents();
    int refused = 0;
    for (int trial = 0; trial < 4_000; trial++) {
      byte[] excerpt = w.batches().get(random.nextInt(w.batches().size())).toByteArray();
      if (excerpt[1] != ExcerptEvents.DELTA_BATCH) {
        continue;
      }
      for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
        int at = ExcerptEvents.FIRST_EVENT + random.nextInt(excerpt.length - 2);
        excerpt[at] = (byte) random.nextInt(256);
      }
      Bytes<byte[]> in = Bytes.wrapForRead(excerpt);
      events.start(in);
      for (int step = 0; ; step++) {
        assertTrue(step <= ExcerptEvents.MAX_EVENTS, "the walk ends");
        try {
          if (!events.next()) {
            break;
          }
          readOrRefuse(events.event());
        } catch (EventFormatException e) {
          assertEquals(EventDefect.NOT_AN_EVENT, e.defect(), e.getMessage());
          refused++;
        }
      }
      assertEquals(excerpt.length, in.readLimit(), "the excerpt's limit is given back");
    }
    assertTrue(refused > 0);
    // and the damaged events read leave good ones as they were: no name decoded from a damaged
    // event stands in for a good event's (it did, through Jackson's table of names shared by
    // parsers)
    RandomEvents good = new RandomEvents(7, 400);
    for (int i = 0; i < 2_000; i++) {
      Event e = good.next();
      Bytes<?> b = Bytes.allocateElasticOnHeap();
      EventWire.write(b, e, EventWire.payloadBytes(e.payload()));
      assertEquals(EventJson.write(e), EventJson.write(EventWire.read(b)), "event " + i);
    }
  }

  private static void readOrRefuse(Bytes<?> event) {
    try {
      EventWire.read(event);
    } catch (EventFormatException e) {
      assertEquals(EventDefect.NOT_AN_EVENT, e.defect(), e.getMessage());
    }
  }

  @Test
  void aCopyBackwardsOrBeyondTheEventBeforeIsRefused() throws Exception {
    byte[] before = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    byte[] out = new byte[64];
    // two new bytes, then 4 copied from 8: "xy89ab"
    byte[] good = {2, 'x', 'y', 4, 8};
    assertEquals(6, EventDelta.read(good, good.length, before, before.length, out));
    assertEquals("xy89ab", new String(out, 0, 6, StandardCharsets.US_ASCII));
    byte[][] bad = {
      {0, 4, 13}, // 4 bytes from 13 of 16
      {0, 4, 8, 0, 4, 2}, // back to 2 after 12
      {5, 'x'}, // five new bytes, one there
      {0, (byte) 0x84}, // a number cut short
      {0, (byte) 0x80, 0, 1}, // a number with a needless last byte
      {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x0F} // beyond an int
    };
    for (byte[] b : bad) {
      EventFormatException e =
          assertThrows(
              EventFormatException.class,
              () -> EventDelta.read(b, b.length, before, before.length, out),
              Arrays.toString(b));
      assertEquals(EventDefect.NOT_AN_EVENT, e.defect());
    }
  }

  @Test
  void aBatchsFirstEventCannotBeDifferences() {
    Bytes<?> b = Bytes.allocateElasticOnHeap();
    b.writeByte(EventWire.MAGIC);
    b.writeByte(ExcerptEvents.DELTA_BATCH);
    b.writeInt(-3);
    b.write(new byte[] {0, 4, 0});
    ExcerptEvents events = new ExcerptEvents().start(b);
    assertThrows(EventFormatException.class, events::next);
  }

  @Test
  void anEventWhoseRunsDifferFromTheEventBeforeIsWrittenWhole() {
    EventDelta delta = new EventDelta();
    byte[] before = new byte[40];
    byte[] event = new byte[40];
    Arrays.fill(event, (byte) 1);
    Bytes<?> out = Bytes.allocateElasticOnHeap();
    assertFalse(delta.begin().write(event, 0, event.length, before, before.length, out));
    assertEquals(0, out.writePosition(), "nothing written");
  }
}
