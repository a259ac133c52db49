package dev.vigil.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tool call's short payload reads back as the payload object the long form writes, names in the
 * same order, and is refused, by the header reading as by the full one, when cut or followed by
 * more.
 */
class CallPayloadTest {
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /** What one encoded call was made of. */
  private record Call(Event expected, byte[] excerpt) {}

  private static Call call(RandomEvents events, SplittableRandom random) {
    return call(events, random, out -> {});
  }

  /** A random call, its payload spoilt by {@code spoil} once written. */
  private static Call call(RandomEvents events, SplittableRandom random, Consumer<SmileOut> spoil) {
    Event source = events.next();
    Event other = events.next();
    int form = random.nextInt(16);
    String method = random.nextBoolean() ? "forecast" : source.kind();
    String tool = (form & CallPayload.TOOL) != 0 ? other.kind() : method;
    long micros = random.nextInt(4) == 0 ? random.nextLong() : random.nextLong(10_000_000);
    ObjectNode expected = NODES.objectNode();
    expected.put("tool", tool);
    EventEncoder encoder = new EventEncoder();
    SmileOut out = encoder.begin().callPayload(form);
    if ((form & CallPayload.TOOL) != 0) {
      out.string(tool);
    }
    if ((form & CallPayload.ARGS) != 0) {
      expected.set("args", source.payload());
      out.tree(source.payload());
    }
    if ((form & CallPayload.RESULT) != 0) {
      JsonNode result =
          other.payload().size() > 0 ? other.payload().elements().next() : NODES.nullNode();
      expected.set("result", result);
      out.tree(result);
    }
    expected.put("duration_ms", CallPayload.durationMs(micros));
    out.number(micros);
    expected.put("class", "dev.example.Weather");
    out.string("dev.example.Weather");
    expected.put("method", method);
    out.string(method);
    if ((form & CallPayload.ERROR) != 0) {
      expected.set("error", other.payload());
      out.tree(other.payload());
    }
    spoil.accept(out);
    Instant ts = source.ts();
    String status = random.nextBoolean() ? "ok" : source.status();
    String kind = random.nextBoolean() ? "tool.x" : null; // null: the tool's kind
    encoder.head(
        ts.getEpochSecond(), ts.getNano(), kind, status, "robin", 42, "main", null, null, null);
    Bytes<?> bytes = Bytes.allocateElasticOnHeap();
    encoder.writeTo(bytes, 7);
    String read = kind != null ? kind : ToolKind.of(tool);
    Event event = new Event(ts, read, status, expected, "robin", 7L, 42L, "main", null, null, null);
    return new Call(event, bytes.toByteArray());
  }

  @Test
  void readsBackAsTheLongFormsPayloadInItsOrder() throws Exception {
    RandomEvents events = new RandomEvents(29, 0, false);
    SplittableRandom random = new SplittableRandom(31);
    for (int i = 0; i < 3_000; i++) {
      Call c = call(events, random);
      Event read = EventWire.read(Bytes.wrapForRead(c.excerpt()));
      assertEquals(EventJson.write(c.expected()), EventJson.write(read), "call " + i);
      assertEquals(
          new EventWire.Header(c.expected().ts(), "robin"),
          EventWire.readHeader(Bytes.wrapForRead(c.excerpt())));
    }
  }

  @Test
  void aShortPayloadCutOrFollowedByMoreIsNotAnEvent() {
    RandomEvents events = new RandomEvents(37, 0, false);
    SplittableRandom random = new SplittableRandom(41);
    for (int i = 0; i < 1_000; i++) {
      Consumer<SmileOut> cut =
          out -> out.rewind(out.mark() - out.length() + random.nextInt(out.length()));
      Consumer<SmileOut> more = out -> out.rawByte(0x23); // one more value: true
      for (Consumer<SmileOut> spoil : List.of(cut, more)) {
        byte[] bad = call(events, random, spoil).excerpt();
        EventFormatException full =
            assertThrows(EventFormatException.class, () -> EventWire.read(Bytes.wrapForRead(bad)));
        assertEquals(EventDefect.NOT_AN_EVENT, full.defect());
        assertThrows(
            EventFormatException.class, () -> EventWire.readHeader(Bytes.wrapForRead(bad)));
      }
    }
  }

  @Test
  void anExcerptWithoutKindTakesItsToolsAndIsNotAnEventWhenTheToolIsNoString() throws Exception {
    for (boolean named : new boolean[] {true, false}) {
      for (boolean string : new boolean[] {true, false}) {
        EventEncoder encoder = new EventEncoder();
        SmileOut out = encoder.begin().callPayload(named ? CallPayload.TOOL : 0);
        if (named) {
          stringOrNumber(out, string, "getWeather");
        }
        out.number(1_500L);
        out.string("dev.example.Weather");
        stringOrNumber(out, string || named, "forecast");
        encoder.head(1_790_000_000L, 0, null, "ok", "robin", 42, "main", null, null, null);
        Bytes<?> bytes = Bytes.allocateElasticOnHeap();
        encoder.writeTo(bytes, 1);
        byte[] excerpt = bytes.toByteArray();
        if (string) {
          Event e = EventWire.read(Bytes.wrapForRead(excerpt));
          assertEquals(named ? "tool.get_weather" : "tool.forecast", e.kind());
          assertEquals(1.5, e.payload().get("duration_ms").doubleValue());
          EventWire.readHeader(Bytes.wrapForRead(excerpt));
        } else {
          assertThrows(
              EventFormatException.class, () -> EventWire.read(Bytes.wrapForRead(excerpt)));
          assertThrows(
              EventFormatException.class, () -> EventWire.readHeader(Bytes.wrapForRead(excerpt)));
        }
      }
    }
  }

  private static void stringOrNumber(SmileOut out, boolean string, String s) {
    if (string) {
      out.string(s);
    } else {
      out.number(s.length());
    }
  }

  @Test
  void appendWritesTheShortFormWhereItReadsBackExactlyAndTheLongFormElsewhere(@TempDir Path dir)
      throws Exception {
    RandomEvents events = new RandomEvents(43, 0, false);
    SplittableRandom random = new SplittableRandom(47);
    List<Event> written = new ArrayList<>();
    int shortForms = 0;
    try (ChronicleQueue q = EventQueues.openForWriting(dir)) {
      ExcerptAppender appender = q.createAppender();
      for (int i = 0; i < 3_000; i++) {
        Event e = callShaped(events.next(), events.next(), random);
        written.add(e);
        EventWire.append(appender, e);
      }
    }
    try (ChronicleQueue q = EventQueues.openForReading(dir)) {
      ExcerptTailer tailer = q.createTailer();
      for (Event expected : written) {
        try (DocumentContext dc = tailer.readingDocument()) {
          Bytes<?> excerpt = dc.wire().bytes();
          boolean shortForm = (excerpt.readByte(excerpt.readPosition() + 2) & 0x80) != 0;
          assertEquals(CallPayload.formOf(expected.payload()) >= 0, shortForm);
          shortForms += shortForm ? 1 : 0;
          assertEquals(EventJson.write(expected), EventJson.write(EventWire.read(excerpt)));
        }
      }
    }
    // the spoilt ones (about half) in the long form, the others short
    assertTrue(shortForms > 1_000 && shortForms < 2_500, shortForms + " short forms");
  }

  /**
   * An event whose payload has a tool call's names, now and then spoilt: a duration that is no
   * double of whole microseconds, a name out of place, one more name.
   */
  private static Event callShaped(Event source, Event other, SplittableRandom random) {
    ObjectNode p = NODES.objectNode();
    String method = random.nextBoolean() ? "forecast" : "lookUp";
    p.put("tool", random.nextBoolean() ? method : other.kind());
    if (random.nextBoolean()) {
      p.set("args", source.payload());
    }
    if (random.nextBoolean()) {
      p.set("result", other.payload());
    }
    switch (random.nextInt(8)) {
      case 0 -> p.put("duration_ms", random.nextInt(1_000)); // an int
      case 1 -> p.put("duration_ms", random.nextDouble()); // finer than microseconds
      case 2 -> p.put("duration_ms", -0.0);
      default -> p.put("duration_ms", random.nextLong(100_000_000) / 1_000.0);
    }
    p.put("class", "dev.example.Weather");
    p.put("method", method);
    if (random.nextInt(4) == 0) {
      p.set("error", other.payload());
    }
    if (random.nextInt(10) == 0) {
      p.put(random.nextBoolean() ? "extra" : "tool", "moved"); // one more name, or tool last
      if (p.has("extra") || random.nextBoolean()) {
        p.remove("tool");
        p.put("tool", "last");
      }
    }
    String kind = random.nextBoolean() ? ToolKind.of(p.get("tool").asText()) : source.kind();
    return new Event(
        source.ts(),
        kind,
        source.status(),
        p,
        source.agent(),
        source.seq(),
        source.pid(),
        source.thread(),
        source.turn(),
        source.callId(),
        source.session());
  }
}
