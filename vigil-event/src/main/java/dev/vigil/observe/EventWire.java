package dev.vigil.observe;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.smile.SmileFactory;
import com.fasterxml.jackson.dataformat.smile.SmileGenerator;
import com.fasterxml.jackson.dataformat.smile.SmileParser;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesIn;
import net.openhft.chronicle.bytes.BytesOut;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * The Chronicle Queue form of an {@link Event}: one event per excerpt, compact binary, exact round
 * trip.
 *
 * <p>Layout of an excerpt (version 3): the magic byte {@code 'V'}, the version byte, a flags byte
 * (which of {@code seq}, {@code pid}, {@code turn}, {@code call_id} and {@code session} follow;
 * {@code status} when it is {@code ok}, {@code fail} or {@code timeout}; whether the payload has a
 * tool call's short form), {@code ts} as stop-bit epoch seconds and nanoseconds, {@code kind} as
 * UTF-8 (null, with a tool call's short form, for the kind of its tool), {@code status} as UTF-8
 * when the flags do not hold it, {@code agent}, {@code seq} and {@code pid} as stop-bit numbers,
 * {@code thread}, {@code turn}, {@code call_id} and {@code session} as UTF-8, those the flags name,
 * and last the payload, length-prefixed: a Smile document (Jackson's binary JSON), which keeps
 * every number type and string of the tree, or a tool call's values without their names ({@link
 * CallPayload}). {@code ts} comes first so that a reader can filter by time without decoding the
 * payload.
 *
 * <p>Versions 1 and 2, written before, are still read. Version 2 has {@code ts}, {@code kind},
 * {@code status} and {@code agent} before a flags byte for {@code seq} and {@code pid} only, every
 * other string written (null as length -1) and the payload always a Smile document; version 1 is
 * version 2 without {@code session}.
 *
 * <p>The agent writes this layout through {@link EventEncoder}, field by field, without an {@link
 * Event} or a payload tree; {@link #write} is the reference it is tested against. Its writer puts
 * the events it has at hand into one excerpt, each in this layout ({@link ExcerptEvents}); this
 * class reads and writes one event, and refuses a batch's excerpt as not an event.
 */
public final class EventWire {
  /** First byte of every Vigil excerpt. */
  public static final byte MAGIC = 'V';

  /** The layout version written by this class. */
  public static final byte VERSION = 3;

  /** The layout before the flags came first; still read, never written. */
  static final byte VERSION_WITH_NULLS = 2;

  /** Version 2 before {@code session} (it ends with {@code call_id}); still read, never written. */
  static final byte VERSION_WITHOUT_SESSION = 1;

  static final int HAS_SEQ = 1;
  static final int HAS_PID = 2;
  static final int HAS_TURN = 4;
  static final int HAS_CALL_ID = 8;
  static final int HAS_SESSION = 16;

  /** Where the flags hold {@code status}: 0 when it is written as UTF-8. */
  static final int STATUS_SHIFT = 5;

  static final int STATUS_MASK = 3 << STATUS_SHIFT;

  /** The payload is a tool call's short form ({@link CallPayload}). */
  static final int CALL_PAYLOAD = 128;

  /**
   * The bytes that hold an event's {@code ts} at most: magic, version, flags, then two stop-bit
   * numbers of at most ten bytes each (a longer one is refused).
   */
  private static final int TS_BYTES = 3 + 2 * 10;

  /** The statuses the flags hold, by their code (0: written as UTF-8). */
  /**
   * Jackson's mapper for payloads in Smile, built on first use: the agent's writer encodes tool
   * calls without it ({@link EventEncoder}), and building it loads much of Jackson, which a process
   * that calls a tool at once and exits would wait for.
   */
  private static final class Smile {
    static final ObjectMapper MAPPER =
        new ObjectMapper(
            SmileFactory.builder()
                .disable(SmileGenerator.Feature.WRITE_HEADER)
                .disable(SmileParser.Feature.REQUIRE_HEADER)
                // no table of names shared by parsers: a name decoded from a damaged event could
                // stand in for a good event's name read later (EventDeltaTest)
                .disable(JsonFactory.Feature.CANONICALIZE_FIELD_NAMES)
                .build());

    private Smile() {}
  }

  private EventWire() {}

  /** The mapper payloads are read with (tests hold {@link SmileScan} to its parser). */
  static ObjectMapper smileMapper() {
    return Smile.MAPPER;
  }

  /**
   * Appends the event as one excerpt, its payload in a tool call's short form ({@link CallPayload})
   * when it has that form's names and reads back from it exactly.
   */
  public static void append(ExcerptAppender appender, Event event) {
    int form = CallPayload.formOf(event.payload());
    byte[] payload =
        form < 0 ? payloadBytes(event.payload()) : CallPayload.bytes(event.payload(), form);
    boolean toolsKind = form >= 0 && CallPayload.isToolsKind(event.kind(), event.payload());
    try (DocumentContext dc = appender.writingDocument()) {
      try {
        write(dc.wire().bytes(), event, payload, form >= 0, toolsKind);
      } catch (RuntimeException e) {
        dc.rollbackOnClose();
        throw e;
      }
    }
  }

  /** The payload tree encoded as Smile. */
  public static byte[] payloadBytes(ObjectNode payload) {
    try {
      return Smile.MAPPER.writeValueAsBytes(payload);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes the event with an already encoded payload (see {@link #payloadBytes}). */
  public static void write(BytesOut<?> out, Event event, byte[] payload) {
    write(out, event, payload, false, false);
  }

  /**
   * Writes the event with its payload encoded, as a Smile document or, with {@code call}, in a tool
   * call's short form; with {@code toolsKind} the kind, the tool's, is left out.
   */
  static void write(BytesOut<?> out, Event event, byte[] payload, boolean call, boolean toolsKind) {
    int status = StatusCodes.of(event.status());
    out.writeByte(MAGIC);
    out.writeByte(VERSION);
    out.writeByte((byte) (flags(event, status) | (call ? CALL_PAYLOAD : 0)));
    Instant ts = event.ts();
    out.writeStopBit(ts.getEpochSecond());
    out.writeStopBit(ts.getNano());
    out.writeUtf8(toolsKind ? null : event.kind());
    if (status == 0) {
      out.writeUtf8(event.status());
    }
    out.writeUtf8(event.agent());
    if (event.seq() != null) {
      out.writeStopBit(event.seq());
    }
    if (event.pid() != null) {
      out.writeStopBit(event.pid());
    }
    out.writeUtf8(event.thread());
    if (event.turn() != null) {
      out.writeUtf8(event.turn());
    }
    if (event.callId() != null) {
      out.writeUtf8(event.callId());
    }
    if (event.session() != null) {
      out.writeUtf8(event.session());
    }
    out.writeStopBit(payload.length);
    out.write(payload);
  }

  private static int flags(Event event, int status) {
    return (event.seq() != null ? HAS_SEQ : 0)
        | (event.pid() != null ? HAS_PID : 0)
        | (event.turn() != null ? HAS_TURN : 0)
        | (event.callId() != null ? HAS_CALL_ID : 0)
        | (event.session() != null ? HAS_SESSION : 0)
        | status << STATUS_SHIFT;
  }

  /**
   * Reads the next event from a tailer whose excerpts each hold one event (a queue this class
   * appended to); {@link TailerEvents} reads any queue, batches included.
   *
   * @return the event, or null when the tailer is at the end of the queue
   * @throws EventFormatException when the excerpt is not a Vigil event; the tailer has moved past
   *     it
   */
  public static Event next(ExcerptTailer tailer) throws EventFormatException {
    try (DocumentContext dc = tailer.readingDocument()) {
      if (!dc.isPresent()) {
        return null;
      }
      return read(dc.wire().bytes());
    }
  }

  /**
   * The timestamp of an encoded event, without decoding the rest; the read position is left
   * unchanged.
   */
  public static Instant peekTs(Bytes<?> in) throws EventFormatException {
    try {
      WireCursor c = WireCursor.of(in, TS_BYTES);
      if (checkHeader(c) == VERSION) {
        c.readByte();
      }
      return Instant.ofEpochSecond(c.readStopBit(), c.readStopBit());
    } catch (RuntimeException e) {
      // a stop-bit number longer than a long, a ts out of Instant's range, an excerpt cut short
      throw new EventFormatException(EventDefect.NOT_AN_EVENT, "unreadable Vigil excerpt: " + e, e);
    }
  }

  /**
   * The {@code agent} of an encoded event (null when it names none), without decoding its payload;
   * the read position is left unchanged.
   */
  public static String peekAgent(Bytes<?> in) throws EventFormatException {
    try {
      WireCursor c = WireCursor.of(in);
      int flags = checkHeader(c) == VERSION ? c.readByte() : 0;
      c.readStopBit();
      c.readStopBit();
      WireText.skip(c);
      if ((flags & STATUS_MASK) == 0) {
        WireText.skip(c);
      }
      return WireText.read(c);
    } catch (RuntimeException e) {
      throw new EventFormatException(EventDefect.NOT_AN_EVENT, "unreadable Vigil excerpt: " + e, e);
    }
  }

  /** What a first reading keeps of an excerpt: its {@code ts} and {@code agent}. */
  public record Header(Instant ts, String agent) {}

  /**
   * Reads and checks one encoded event like {@link #read}, with the same outcome for every excerpt,
   * but keeps only its {@code ts} and {@code agent}: the other strings are checked and passed over,
   * and the payload is checked by walking its Smile tokens, each decoded as a tree would decode it,
   * without building the tree, by {@link SmileScan} where it is sure of the payload and by the
   * parser elsewhere (docs/COMMANDS.md#memory).
   */
  public static Header readHeader(BytesIn<?> bytes) throws EventFormatException {
    try {
      WireCursor in = WireCursor.of(bytes);
      byte version = checkHeader(in);
      int flags = version == VERSION ? in.readByte() : 0;
      Instant ts = Instant.ofEpochSecond(in.readStopBit(), in.readStopBit());
      boolean kind = WireText.skip(in);
      boolean status = version == VERSION && (flags & STATUS_MASK) != 0 || WireText.skip(in);
      String agent = WireText.read(in);
      if (version != VERSION) {
        flags = in.readByte() & (HAS_SEQ | HAS_PID);
      }
      if ((flags & HAS_SEQ) != 0) {
        in.readStopBit();
      }
      if ((flags & HAS_PID) != 0) {
        in.readStopBit();
      }
      int strings = strings(version, flags); // thread, and turn, call_id, session written
      for (int i = 0; i < strings; i++) {
        WireText.skip(in);
      }
      byte[] payload = payload(in);
      boolean call = (flags & CALL_PAYLOAD) != 0;
      if (call) {
        if (!CallPayload.surelyValid(payload, !kind)) {
          CallPayload.check(payload, Smile.MAPPER, !kind);
        }
      } else if (!SmileScan.isObject(payload) && !isObject(payload)) {
        throw new EventFormatException(EventDefect.NOT_AN_EVENT, "excerpt lacks an object payload");
      }
      if (!(kind || call) || !status) {
        throw new EventFormatException(EventDefect.NOT_AN_EVENT, "excerpt lacks kind or status");
      }
      bytes.readSkip(in.position());
      return new Header(ts, agent);
    } catch (IOException | RuntimeException e) {
      throw new EventFormatException(EventDefect.NOT_AN_EVENT, "unreadable Vigil excerpt: " + e, e);
    }
  }

  /** How many strings follow {@code pid}: the thread and those of turn, call_id and session. */
  private static int strings(byte version, int flags) {
    if (version == VERSION_WITHOUT_SESSION) {
      return 3;
    }
    if (version == VERSION_WITH_NULLS) {
      return 4;
    }
    return 1 + Integer.bitCount(flags & (HAS_TURN | HAS_CALL_ID | HAS_SESSION));
  }

  /**
   * Whether a Smile document reads as a tree whose root is an object: its first value walked token
   * by token, each string, number and embedded value decoded (what follows it is ignored, as the
   * tree's reading ignores it).
   */
  static boolean isObject(byte[] smile) throws IOException {
    try (JsonParser p = Smile.MAPPER.getFactory().createParser(smile)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return false;
      }
      walk(p);
      return true;
    }
  }

  /**
   * Walks the value whose first token is the parser's current one to its last token, decoding each
   * string, number and embedded value as a tree's reading decodes it.
   */
  static void walk(JsonParser p) throws IOException {
    for (int depth = 0; ; ) {
      JsonToken t = p.currentToken();
      switch (t) {
        case START_OBJECT, START_ARRAY -> depth++;
        case END_OBJECT, END_ARRAY -> depth--;
        case VALUE_STRING -> p.getText();
        case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> p.getNumberValue();
        case VALUE_EMBEDDED_OBJECT -> p.getEmbeddedObject();
        default -> {
          // a name (decoded as its token is read), true, false or null
        }
      }
      if (depth == 0) {
        return;
      }
      if (p.nextToken() == null) {
        throw new IOException("the payload ends inside its object");
      }
    }
  }

  /**
   * Reads one encoded event: the bytes from the read position to the read limit, copied out at
   * once; the read position moves past the event.
   */
  public static Event read(BytesIn<?> bytes) throws EventFormatException {
    try {
      WireCursor in = WireCursor.of(bytes);
      Event e = read(in);
      bytes.readSkip(in.position());
      return e;
    } catch (IOException | RuntimeException e) {
      throw new EventFormatException(EventDefect.NOT_AN_EVENT, "unreadable Vigil excerpt: " + e, e);
    }
  }

  private static Event read(WireCursor in) throws IOException, EventFormatException {
    byte version = checkHeader(in);
    if (version == VERSION) {
      return readCurrent(in);
    }
    Instant ts = Instant.ofEpochSecond(in.readStopBit(), in.readStopBit());
    String kind = WireText.read(in);
    String status = WireText.read(in);
    String agent = WireText.read(in);
    int flags = in.readByte();
    Long seq = (flags & HAS_SEQ) != 0 ? in.readStopBit() : null;
    Long pid = (flags & HAS_PID) != 0 ? in.readStopBit() : null;
    String thread = WireText.read(in);
    String turn = WireText.read(in);
    String callId = WireText.read(in);
    String session = version == VERSION_WITHOUT_SESSION ? null : WireText.read(in);
    JsonNode tree = tree(payload(in));
    ObjectNode object = payloadOf(kind, status, tree);
    return new Event(ts, kind, status, object, agent, seq, pid, thread, turn, callId, session);
  }

  /** The rest of an excerpt of the current version, after its version byte. */
  private static Event readCurrent(WireCursor in) throws IOException, EventFormatException {
    int flags = in.readByte();
    Instant ts = Instant.ofEpochSecond(in.readStopBit(), in.readStopBit());
    String kind = WireText.read(in);
    int code = (flags & STATUS_MASK) >>> STATUS_SHIFT;
    String status = code == 0 ? WireText.read(in) : StatusCodes.status(code);
    String agent = WireText.read(in);
    Long seq = (flags & HAS_SEQ) != 0 ? in.readStopBit() : null;
    Long pid = (flags & HAS_PID) != 0 ? in.readStopBit() : null;
    String thread = WireText.read(in);
    String turn = (flags & HAS_TURN) != 0 ? WireText.read(in) : null;
    String callId = (flags & HAS_CALL_ID) != 0 ? WireText.read(in) : null;
    String session = (flags & HAS_SESSION) != 0 ? WireText.read(in) : null;
    byte[] payload = payload(in);
    JsonNode tree;
    if ((flags & CALL_PAYLOAD) != 0) {
      ObjectNode call = CallPayload.read(payload, Smile.MAPPER);
      kind = kind != null ? kind : CallPayload.kindOf(call);
      tree = call;
    } else {
      tree = tree(payload);
    }
    ObjectNode object = payloadOf(kind, status, tree);
    return new Event(ts, kind, status, object, agent, seq, pid, thread, turn, callId, session);
  }

  /**
   * A payload's tree as {@code readTree} reads it from its Smile bytes: an object (every event's
   * payload) through {@link PayloadTree}, anything else through {@code readTree} itself.
   */
  private static JsonNode tree(byte[] payload) throws IOException {
    ObjectNode sure = SmileScan.object(payload);
    if (sure != null) {
      return sure;
    }
    try (JsonParser p = Smile.MAPPER.getFactory().createParser(payload)) {
      if (p.nextToken() == JsonToken.START_OBJECT) {
        // what follows the object is left unread, as readTree leaves it
        return PayloadTree.object(p, Smile.MAPPER);
      }
    }
    return Smile.MAPPER.readTree(payload);
  }

  /** The payload of an event that has its kind and status, or not an event. */
  private static ObjectNode payloadOf(String kind, String status, JsonNode tree)
      throws EventFormatException {
    if (kind == null || status == null || !(tree instanceof ObjectNode object)) {
      throw new EventFormatException(
          EventDefect.NOT_AN_EVENT, "excerpt lacks kind, status or an object payload");
    }
    return object;
  }

  /** The length-prefixed payload that ends an excerpt, its length checked against the excerpt. */
  private static byte[] payload(WireCursor in) throws EventFormatException {
    int length = Math.toIntExact(in.readStopBit());
    if (length < 0 || length > in.remaining()) {
      throw new EventFormatException(
          EventDefect.NOT_AN_EVENT, "payload length " + length + " exceeds the excerpt");
    }
    return in.bytes(length);
  }

  private static byte checkHeader(WireCursor in) throws EventFormatException {
    if (in.remaining() < 2) {
      throw new EventFormatException(
          EventDefect.NOT_AN_EVENT, "excerpt too short to be a Vigil event");
    }
    byte magic = in.readByte();
    byte version = in.readByte();
    if (magic != MAGIC) {
      throw new EventFormatException(EventDefect.NOT_AN_EVENT, "excerpt was not written by Vigil");
    }
    if (version < VERSION_WITHOUT_SESSION || version > VERSION) {
      throw new EventFormatException(
          EventDefect.NOT_AN_EVENT,
          "excerpt has layout version "
              + version
              + "; this Vigil reads versions "
              + VERSION_WITHOUT_SESSION
              + " to "
              + VERSION);
    }
    return version;
  }
}
