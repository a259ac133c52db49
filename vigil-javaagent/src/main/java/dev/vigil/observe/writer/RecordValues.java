package dev.vigil.observe.writer;

import dev.vigil.observe.SmileOut;
import dev.vigil.observe.agent.Redaction;
import dev.vigil.observe.capture.RecordShape;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes a record that cannot change ({@link RecordShape}) into an event's payload straight from
 * its fields: what {@link ValueWriter} writes for its JSON tree (secret names masked, the patterns
 * applied to every string), without making the tree. It bounds the characters of the record's JSON
 * as it goes (a string at most six a character, a number at most its longest text); only when the
 * bound passes the size limit does it write the record again counting them exactly, as {@code
 * JsonNode.toString()} would write them. A record whose JSON is longer than the limit is rubbed out
 * again, and {@link ValueWriter} writes it the tree's way, cut. Thread-safe.
 */
final class RecordValues {
  /** What never changes for a shape: its names encoded, and which are secret. */
  private record Names(byte[][] encoded, boolean[] secret, int[] jsonLength) {}

  /** The longest texts of an int, a long and a double (or a quoted NaN or infinity). */
  private static final int INT_CHARS = 11;

  private static final int LONG_CHARS = 20;
  private static final int DOUBLE_CHARS = 26;

  private final Redaction redaction;
  private final int maxChars;
  private final ConcurrentHashMap<RecordShape, Names> names = new ConcurrentHashMap<>();

  RecordValues(Redaction redaction, int maxChars) {
    this.redaction = redaction;
    this.maxChars = maxChars;
  }

  /**
   * Writes {@code record}; false, with nothing written, when its JSON is longer than the size limit
   * or a field cannot be read.
   */
  boolean write(Object record, RecordShape shape, SmileOut out) {
    int mark = out.mark();
    try {
      if (object(record, shape, out, false) <= maxChars) {
        return true;
      }
      out.rewind(mark);
      if (object(record, shape, out, true) <= maxChars) {
        return true;
      }
    } catch (ReflectiveOperationException | RuntimeException e) {
      // written the tree's way
    }
    out.rewind(mark);
    return false;
  }

  /** Writes the object; the length of its JSON text, {@code exact} or a bound. */
  long object(Object record, RecordShape shape, SmileOut out, boolean exact)
      throws ReflectiveOperationException {
    Names n = names.get(shape); // computeIfAbsent locks the bin when the shape is not its first
    if (n == null) {
      n = names.computeIfAbsent(shape, this::names);
    }
    List<RecordShape.Component> components = shape.components();
    out.startObject();
    long json = 1 + components.size(); // the braces and the commas, one fewer than the names
    for (int i = 0; i < components.size(); i++) {
      out.raw(n.encoded[i]);
      json += n.jsonLength[i] + 1;
      if (n.secret[i]) {
        out.string(Redaction.MASK);
        json += Redaction.MASK.length() + 2;
      } else {
        json += value(record, components.get(i), out, exact);
      }
    }
    out.endObject();
    return components.isEmpty() ? 2 : json;
  }

  private long value(Object record, RecordShape.Component c, SmileOut out, boolean exact)
      throws ReflectiveOperationException {
    switch (c.kind()) {
      case INT -> {
        int v = c.field().getInt(record);
        out.number(v);
        return exact ? digits(v) : INT_CHARS;
      }
      case LONG -> {
        long v = c.field().getLong(record);
        out.number(v);
        return exact ? digits(v) : LONG_CHARS;
      }
      case DOUBLE -> {
        return number(c.field().getDouble(record), out, exact);
      }
      case BOOLEAN -> {
        boolean v = c.field().getBoolean(record);
        out.bool(v);
        return v ? 4 : 5;
      }
      default -> {
        return reference(c, c.field().get(record), out, exact);
      }
    }
  }

  private long reference(RecordShape.Component c, Object v, SmileOut out, boolean exact)
      throws ReflectiveOperationException {
    if (v == null) {
      out.nullValue();
      return 4;
    }
    return switch (c.kind()) {
      case STRING -> string((String) v, out, exact);
      case ENUM -> string(((Enum<?>) v).name(), out, exact);
      case TEXT -> string(v.toString(), out, exact);
      case BOXED_BOOLEAN -> {
        boolean b = (Boolean) v;
        out.bool(b);
        yield b ? 4 : 5;
      }
      case BOXED_NUMBER -> boxed((Number) v, out, exact);
      case RECORD -> object(v, c.nested(), out, exact);
      default -> throw new IllegalStateException("a primitive component read as an object");
    };
  }

  static long boxed(Number v, SmileOut out, boolean exact) {
    if (v instanceof Double d) {
      return number(d, out, exact);
    }
    if (v instanceof Long l) {
      out.number(l.longValue());
      return exact ? digits(l) : LONG_CHARS;
    }
    int i = v.intValue(); // Integer, Short, Byte: written as an int, as Smile's generator does
    out.number(i);
    return exact ? digits(i) : INT_CHARS;
  }

  /** The characters of {@code v} in decimal, its sign included. */
  static int digits(long v) {
    if (v == Long.MIN_VALUE) {
      return 20;
    }
    int n = v < 0 ? 2 : 1;
    for (long x = Math.abs(v); x >= 10; x /= 10) {
      n++;
    }
    return n;
  }

  static long number(double v, SmileOut out, boolean exact) {
    out.number(v);
    if (!exact) {
      return DOUBLE_CHARS;
    }
    int text = Double.toString(v).length();
    return Double.isFinite(v) ? text : text + 2; // NaN and the infinities are written quoted
  }

  long string(String s, SmileOut out, boolean exact) {
    if (redaction.writeUnchanged(s, out)) {
      return exact ? jsonLength(s) : 6L * s.length() + 2;
    }
    String redacted = redaction.text(s);
    out.string(redacted);
    return exact ? jsonLength(redacted) : 6L * redacted.length() + 2;
  }

  private Names names(RecordShape shape) {
    List<RecordShape.Component> components = shape.components();
    byte[][] encoded = new byte[components.size()][];
    boolean[] secret = new boolean[components.size()];
    int[] json = new int[components.size()];
    for (int i = 0; i < encoded.length; i++) {
      String name = components.get(i).name();
      encoded[i] = SmileOut.nameBytes(name);
      secret[i] = redaction.isSecretName(name);
      json[i] = (int) jsonLength(name);
    }
    return new Names(encoded, secret, json);
  }

  /**
   * The length of {@code s} as a JSON string, quotes included, escaped as Jackson escapes it: a
   * quote, a backslash and {@code \b \t \n \f \r} take two characters, the other control characters
   * six ({@code \\u00XX}), everything else one.
   */
  static long jsonLength(String s) {
    long n = s.length() + 2;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '"' || c == '\\') {
        n++;
      } else if (c < 0x20) {
        n += c == '\b' || c == '\t' || c == '\n' || c == '\f' || c == '\r' ? 1 : 5;
      }
    }
    return n;
  }
}
