package dev.vigil.observe;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.CharConversionException;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.time.DateTimeException;
import java.time.ZoneId;

/**
 * The JSON form of an {@link Event} (docs/DESIGN.md#the-event): one event per line in JSONL.
 *
 * <p>Writing puts the fields in the documented order ({@code ts, kind, status, payload, agent, seq,
 * pid, thread, turn, call_id, session}), writes {@code ts} with {@link Timestamps#format}, writes
 * the payload as a JSON tree and omits optional fields that are absent. The output is one line:
 * JSON escapes every line break inside strings.
 *
 * <p>Reading is strict about the four required fields and the types of known fields and lenient
 * about everything else: <b>unknown top-level fields are ignored</b>, neither an error nor
 * preserved, so logs with extra fields of their own (and the paper's format, which has only the
 * required fields) are read as they are. A naive {@code ts} is read in the zone the caller assumes
 * and flagged in {@link Parsed#naiveTs()}. Each failure is an {@link EventFormatException} whose
 * {@link EventDefect} says how to count it. Payload numbers are read as JSON usually is: integers
 * exactly (as int, long or big integer), decimals as doubles.
 *
 * <p>Instances are immutable and thread-safe.
 */
public final class EventJson {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().setNodeFactory(new CompactNodeFactory());
  private static final JsonFactory FACTORY = MAPPER.getFactory();

  /** Distinct kinds, statuses and agents shared at most. */
  static final int MAX_COMMON = 4096;

  private static final java.util.concurrent.ConcurrentHashMap<String, String> COMMON =
      new java.util.concurrent.ConcurrentHashMap<>();

  private EventJson() {}

  /** An event read from JSON, with whether its {@code ts} was naive local time. */
  public record Parsed(Event event, boolean naiveTs) {}

  /** The shared mapper used for payload trees; callers must not reconfigure it. */
  public static ObjectMapper mapper() {
    return MAPPER;
  }

  /** The event as one JSON line, without a line terminator. */
  public static String write(Event event) {
    StringWriter out = new StringWriter(256);
    write(event, out);
    return out.toString();
  }

  /** Writes the event as JSON (no line terminator) to {@code out}. */
  public static void write(Event event, Writer out) {
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      g.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
      write(event, g);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes the event as one JSON object to a generator. */
  public static void write(Event event, JsonGenerator g) throws IOException {
    g.writeStartObject();
    g.writeStringField("ts", Timestamps.format(event.ts()));
    g.writeStringField("kind", event.kind());
    g.writeStringField("status", event.status());
    g.writeFieldName("payload");
    MAPPER.writeTree(g, event.payload());
    writeOptional(g, "agent", event.agent());
    if (event.seq() != null) {
      g.writeNumberField("seq", event.seq());
    }
    if (event.pid() != null) {
      g.writeNumberField("pid", event.pid());
    }
    writeOptional(g, "thread", event.thread());
    writeOptional(g, "turn", event.turn());
    writeOptional(g, "call_id", event.callId());
    writeOptional(g, "session", event.session());
    g.writeEndObject();
  }

  private static void writeOptional(JsonGenerator g, String name, String value) throws IOException {
    if (value != null) {
      g.writeStringField(name, value);
    }
  }

  /**
   * Reads one JSON line.
   *
   * @param line the line, without its terminator
   * @param assumeZone zone in which a naive {@code ts} is read
   * @throws EventFormatException naming the field and the defect
   */
  public static Parsed read(String line, ZoneId assumeZone) throws EventFormatException {
    return parsing(() -> FACTORY.createParser(line), p -> read(p, assumeZone));
  }

  /**
   * Reads one JSON line given as UTF-8 bytes (bytes that are not UTF-8 are not JSON).
   *
   * @throws EventFormatException naming the field and the defect
   */
  public static Parsed read(byte[] utf8, int offset, int length, ZoneId assumeZone)
      throws EventFormatException {
    return parsing(() -> FACTORY.createParser(utf8, offset, length), p -> read(p, assumeZone));
  }

  /**
   * What the first reading of a line keeps: its {@code ts} in UTC, its {@code agent}, and whether
   * ts was naive.
   */
  public record Header(java.time.Instant ts, String agent, boolean naiveTs) {}

  /**
   * Reads and checks one JSON line given as UTF-8 bytes like {@link #read(byte[], int, int,
   * ZoneId)}, with the same outcome for every line, but decodes only {@code ts} and {@code agent}
   * and keeps nothing of the line: one pass over its bytes ({@link HeaderScan}) for a valid line,
   * the full reading for any other.
   *
   * @throws EventFormatException naming the field and the defect
   */
  public static Header readHeader(byte[] utf8, int offset, int length, ZoneId assumeZone)
      throws EventFormatException {
    Header sure = HeaderScan.read(utf8, offset, length, assumeZone);
    return sure != null ? sure : parseHeader(utf8, offset, length, assumeZone);
  }

  /**
   * {@link #readHeader} by Jackson's parser, for the lines {@link HeaderScan} leaves to it: the
   * full reading, whose header it keeps. (Jackson's parser checks less when it passes over a string
   * than when it decodes one: text that is not well-formed UTF-8 in a payload's string, such as a
   * surrogate written in UTF-8, was taken by a reading that only passed over the payload and
   * refused by the full one.)
   */
  static Header parseHeader(byte[] utf8, int offset, int length, ZoneId assumeZone)
      throws EventFormatException {
    Parsed parsed = read(utf8, offset, length, assumeZone);
    return new Header(parsed.event().ts(), parsed.event().agent(), parsed.naiveTs());
  }

  /**
   * Reads and checks one JSON line like {@link #readHeader}, keeping the line as a copy of its
   * bytes until {@link PendingEvent#event()} is first called.
   *
   * @throws EventFormatException naming the field and the defect
   */
  public static PendingEvent readPending(byte[] utf8, int offset, int length, ZoneId assumeZone)
      throws EventFormatException {
    Header h = readHeader(utf8, offset, length, assumeZone);
    return new PendingEvent(
        h.ts(),
        h.agent(),
        h.naiveTs(),
        java.util.Arrays.copyOfRange(utf8, offset, offset + length),
        assumeZone);
  }

  /** Opens a parser over one line. */
  @FunctionalInterface
  private interface Opener {
    JsonParser open() throws IOException;
  }

  /** Reads one line with an open parser. */
  @FunctionalInterface
  private interface LineReader<T> {
    T read(JsonParser p) throws IOException, EventFormatException;
  }

  /** Runs a line's reader; a parser's complaint is {@code not_json}. */
  private static <T> T parsing(Opener opener, LineReader<T> reader) throws EventFormatException {
    try (JsonParser p = opener.open()) {
      return reader.read(p);
    } catch (JsonProcessingException e) {
      throw new EventFormatException(
          EventDefect.NOT_JSON, "not JSON: " + e.getOriginalMessage(), e);
    } catch (CharConversionException e) {
      // bytes the parser took for UTF-16 or UTF-32 (zero bytes where UTF-8 has none) that are not
      throw new EventFormatException(
          EventDefect.NOT_JSON, "not JSON: not UTF-8 text (" + e.getMessage() + ")", e);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static void startObject(JsonParser p) throws IOException, EventFormatException {
    if (p.nextToken() != JsonToken.START_OBJECT) {
      throw new EventFormatException(EventDefect.NOT_JSON, "not a JSON object");
    }
  }

  private static void endOfLine(JsonParser p) throws IOException, EventFormatException {
    if (p.nextToken() != null) {
      throw new EventFormatException(EventDefect.NOT_JSON, "text after the JSON object");
    }
  }

  private static Timestamps.Reading timestamp(String ts, ZoneId assumeZone)
      throws EventFormatException {
    try {
      return Timestamps.parse(ts, assumeZone);
    } catch (DateTimeException e) {
      throw new EventFormatException(
          EventDefect.BAD_TS, "ts \"" + ts + "\" is not an ISO-8601 timestamp", e);
    }
  }

  private static Parsed read(JsonParser p, ZoneId assumeZone)
      throws IOException, EventFormatException {
    startObject(p);
    String ts = null;
    String kind = null;
    String status = null;
    ObjectNode payload = null;
    String agent = null;
    Long seq = null;
    Long pid = null;
    String thread = null;
    String turn = null;
    String callId = null;
    String session = null;
    for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
      JsonToken t = p.nextToken();
      switch (name) {
        case "ts" -> ts = string(p, t, name);
        case "kind" -> kind = common(string(p, t, name));
        case "status" -> status = common(string(p, t, name));
        case "payload" -> payload = object(p, t);
        case "agent" -> agent = common(string(p, t, name));
        case "seq" -> seq = integer(p, t, name);
        case "pid" -> pid = integer(p, t, name);
        case "thread" -> thread = common(string(p, t, name));
        case "turn" -> turn = string(p, t, name);
        case "call_id" -> callId = string(p, t, name);
        case "session" -> session = string(p, t, name);
        default -> p.skipChildren();
      }
    }
    endOfLine(p);
    require(ts, "ts");
    require(kind, "kind");
    require(status, "status");
    require(payload, "payload");
    Timestamps.Reading reading = timestamp(ts, assumeZone);
    Event event =
        new Event(
            reading.instant(),
            kind,
            status,
            payload,
            agent,
            seq,
            pid,
            thread,
            turn,
            callId,
            session);
    return new Parsed(event, reading.naive());
  }

  /**
   * One shared instance per distinct kind, status, agent and thread, so that a large window does
   * not hold a million copies of {@code "tool.set_reminder"}; the table stops growing at {@value
   * #MAX_COMMON} entries.
   */
  static String common(String value) {
    if (value == null) {
      return null;
    }
    String shared = COMMON.get(value);
    if (shared != null) {
      return shared;
    }
    if (COMMON.size() < MAX_COMMON) {
      shared = COMMON.putIfAbsent(value, value);
    }
    return shared != null ? shared : value;
  }

  private static void require(Object value, String field) throws EventFormatException {
    if (value == null) {
      throw new EventFormatException(
          EventDefect.MISSING_FIELD, "required field \"" + field + "\" is missing");
    }
  }

  private static String string(JsonParser p, JsonToken t, String name)
      throws IOException, EventFormatException {
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    if (t != JsonToken.VALUE_STRING) {
      p.skipChildren();
      throw new EventFormatException(
          EventDefect.BAD_FIELD, "field \"" + name + "\" must be a string, not " + t);
    }
    return p.getText();
  }

  private static Long integer(JsonParser p, JsonToken t, String name)
      throws IOException, EventFormatException {
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    if (t != JsonToken.VALUE_NUMBER_INT || p.getNumberType() == JsonParser.NumberType.BIG_INTEGER) {
      p.skipChildren();
      throw new EventFormatException(
          EventDefect.BAD_FIELD, "field \"" + name + "\" must be an integer, not " + t);
    }
    return p.getLongValue();
  }

  private static ObjectNode object(JsonParser p, JsonToken t)
      throws IOException, EventFormatException {
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    if (t != JsonToken.START_OBJECT) {
      p.skipChildren();
      throw new EventFormatException(
          EventDefect.BAD_FIELD, "field \"payload\" must be a JSON object, not " + t);
    }
    return PayloadTree.object(p, MAPPER);
  }
}
