package dev.vigil.observe;

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
 * <p>Layout of an excerpt (version 2): the magic byte {@code 'V'}, the version byte, {@code ts} as
 * stop-bit epoch seconds and nanoseconds, {@code kind} and {@code status} as UTF-8, then {@code
 * agent}, a presence byte for {@code seq}/{@code pid} followed by those present as stop-bit
 * numbers, {@code thread}, {@code turn}, {@code call_id} and {@code session} (UTF-8, possibly
 * null), and last the payload as a length-prefixed Smile document (Jackson's binary JSON), which
 * keeps every number type and string of the tree. {@code ts} comes first so that a reader can
 * filter by time without decoding the payload. Version 1, written before {@code session} existed,
 * is the same without {@code session} and is still read.
 *
 * <p>The agent writes this layout through {@link EventEncoder}, field by field, without an {@link
 * Event} or a payload tree; {@link #write} is the reference it is tested against.
 */
public final class EventWire {
  /** First byte of every Vigil excerpt. */
  public static final byte MAGIC = 'V';

  /** The layout version written by this class. */
  public static final byte VERSION = 2;

  /**
   * The layout before {@code session} (it ends with {@code call_id}); still read, never written.
   */
  static final byte VERSION_WITHOUT_SESSION = 1;

  static final int HAS_SEQ = 1;
  static final int HAS_PID = 2;

  private static final ObjectMapper SMILE =
      new ObjectMapper(
          SmileFactory.builder()
              .disable(SmileGenerator.Feature.WRITE_HEADER)
              .disable(SmileParser.Feature.REQUIRE_HEADER)
              .build());

  private EventWire() {}

  /** Appends the event as one excerpt. */
  public static void append(ExcerptAppender appender, Event event) {
    byte[] payload = payloadBytes(event.payload());
    try (DocumentContext dc = appender.writingDocument()) {
      try {
        write(dc.wire().bytes(), event, payload);
      } catch (RuntimeException e) {
        dc.rollbackOnClose();
        throw e;
      }
    }
  }

  /** The payload tree encoded as Smile. */
  public static byte[] payloadBytes(ObjectNode payload) {
    try {
      return SMILE.writeValueAsBytes(payload);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes the event with an already encoded payload (see {@link #payloadBytes}). */
  public static void write(BytesOut<?> out, Event event, byte[] payload) {
    out.writeByte(MAGIC);
    out.writeByte(VERSION);
    Instant ts = event.ts();
    out.writeStopBit(ts.getEpochSecond());
    out.writeStopBit(ts.getNano());
    out.writeUtf8(event.kind());
    out.writeUtf8(event.status());
    out.writeUtf8(event.agent());
    int flags = (event.seq() != null ? HAS_SEQ : 0) | (event.pid() != null ? HAS_PID : 0);
    out.writeByte((byte) flags);
    if (event.seq() != null) {
      out.writeStopBit(event.seq());
    }
    if (event.pid() != null) {
      out.writeStopBit(event.pid());
    }
    out.writeUtf8(event.thread());
    out.writeUtf8(event.turn());
    out.writeUtf8(event.callId());
    out.writeUtf8(event.session());
    out.writeStopBit(payload.length);
    out.write(payload);
  }

  /**
   * Reads the next event from a tailer.
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
    long start = in.readPosition();
    try {
      checkHeader(in);
      return Instant.ofEpochSecond(in.readStopBit(), in.readStopBit());
    } catch (RuntimeException e) {
      // a stop-bit number longer than a long, a ts out of Instant's range, an excerpt cut short
      throw new EventFormatException(EventDefect.NOT_AN_EVENT, "unreadable Vigil excerpt: " + e, e);
    } finally {
      in.readPosition(start);
    }
  }

  /**
   * The {@code agent} of an encoded event (null when it names none), without decoding its payload;
   * the read position is left unchanged.
   */
  public static String peekAgent(Bytes<?> in) throws EventFormatException {
    long start = in.readPosition();
    try {
      checkHeader(in);
      in.readStopBit();
      in.readStopBit();
      in.readUtf8();
      in.readUtf8();
      return in.readUtf8();
    } catch (RuntimeException e) {
      throw new EventFormatException(EventDefect.NOT_AN_EVENT, "unreadable Vigil excerpt: " + e, e);
    } finally {
      in.readPosition(start);
    }
  }

  /** What a first reading keeps of an excerpt: its {@code ts} and {@code agent}. */
  public record Header(Instant ts, String agent) {}

  /**
   * Reads and checks one encoded event like {@link #read}, with the same outcome for every excerpt,
   * but keeps only its {@code ts} and {@code agent}: the other strings are decoded into a buffer
   * and dropped, and the payload is checked by walking its Smile tokens, each decoded as a tree
   * would decode it, without building the tree (docs/COMMANDS.md#memory).
   */
  public static Header readHeader(BytesIn<?> in) throws EventFormatException {
    try {
      byte version = checkHeader(in);
      Instant ts = Instant.ofEpochSecond(in.readStopBit(), in.readStopBit());
      StringBuilder text = new StringBuilder(32);
      boolean kind = in.readUtf8(text);
      boolean status = in.readUtf8(text);
      String agent = in.readUtf8();
      int flags = in.readByte();
      if ((flags & HAS_SEQ) != 0) {
        in.readStopBit();
      }
      if ((flags & HAS_PID) != 0) {
        in.readStopBit();
      }
      int strings = version == VERSION_WITHOUT_SESSION ? 3 : 4; // thread, turn, call_id, session
      for (int i = 0; i < strings; i++) {
        in.readUtf8(text);
      }
      byte[] payload = payload(in);
      if (!kind || !status || !isObject(payload)) {
        throw new EventFormatException(
            EventDefect.NOT_AN_EVENT, "excerpt lacks kind, status or an object payload");
      }
      return new Header(ts, agent);
    } catch (IOException | RuntimeException e) {
      throw new EventFormatException(EventDefect.NOT_AN_EVENT, "unreadable Vigil excerpt: " + e, e);
    }
  }

  /**
   * Whether a Smile document reads as a tree whose root is an object: its first value walked token
   * by token, each string, number and embedded value decoded (what follows it is ignored, as the
   * tree's reading ignores it).
   */
  private static boolean isObject(byte[] smile) throws IOException {
    try (JsonParser p = SMILE.getFactory().createParser(smile)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return false;
      }
      for (int depth = 1; depth > 0; ) {
        JsonToken t = p.nextToken();
        if (t == null) {
          throw new IOException("the payload ends inside its object");
        }
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
      }
      return true;
    }
  }

  /** Reads one encoded event. */
  public static Event read(BytesIn<?> in) throws EventFormatException {
    try {
      byte version = checkHeader(in);
      Instant ts = Instant.ofEpochSecond(in.readStopBit(), in.readStopBit());
      String kind = in.readUtf8();
      String status = in.readUtf8();
      String agent = in.readUtf8();
      int flags = in.readByte();
      Long seq = (flags & HAS_SEQ) != 0 ? in.readStopBit() : null;
      Long pid = (flags & HAS_PID) != 0 ? in.readStopBit() : null;
      String thread = in.readUtf8();
      String turn = in.readUtf8();
      String callId = in.readUtf8();
      String session = version == VERSION_WITHOUT_SESSION ? null : in.readUtf8();
      byte[] payload = payload(in);
      JsonNode tree = SMILE.readTree(payload);
      if (kind == null || status == null || !(tree instanceof ObjectNode object)) {
        throw new EventFormatException(
            EventDefect.NOT_AN_EVENT, "excerpt lacks kind, status or an object payload");
      }
      return new Event(ts, kind, status, object, agent, seq, pid, thread, turn, callId, session);
    } catch (IOException | RuntimeException e) {
      throw new EventFormatException(EventDefect.NOT_AN_EVENT, "unreadable Vigil excerpt: " + e, e);
    }
  }

  /** The length-prefixed payload that ends an excerpt, its length checked against the excerpt. */
  private static byte[] payload(BytesIn<?> in) throws EventFormatException {
    int length = Math.toIntExact(in.readStopBit());
    if (length < 0 || length > in.readRemaining()) {
      throw new EventFormatException(
          EventDefect.NOT_AN_EVENT, "payload length " + length + " exceeds the excerpt");
    }
    byte[] payload = new byte[length];
    in.read(payload);
    return payload;
  }

  private static byte checkHeader(BytesIn<?> in) throws EventFormatException {
    if (in.readRemaining() < 2) {
      throw new EventFormatException(
          EventDefect.NOT_AN_EVENT, "excerpt too short to be a Vigil event");
    }
    byte magic = in.readByte();
    byte version = in.readByte();
    if (magic != MAGIC) {
      throw new EventFormatException(EventDefect.NOT_AN_EVENT, "excerpt was not written by Vigil");
    }
    if (version != VERSION && version != VERSION_WITHOUT_SESSION) {
      throw new EventFormatException(
          EventDefect.NOT_AN_EVENT,
          "excerpt has layout version "
              + version
              + "; this Vigil reads versions "
              + VERSION_WITHOUT_SESSION
              + " and "
              + VERSION);
    }
    return version;
  }
}
