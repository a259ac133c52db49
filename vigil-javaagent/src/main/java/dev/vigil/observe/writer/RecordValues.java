package dev.vigil.observe.writer;

import dev.vigil.observe.SmileOut;
import dev.vigil.observe.agent.Redaction;
import dev.vigil.observe.capture.RecordShape;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes a record that cannot change ({@link RecordShape}) into an event's payload straight from
 * its fields: what {@link ValueWriter} writes for its JSON tree (secret names masked, the patterns
 * applied to every string), without making the tree. It counts the characters of the record's JSON
 * as it goes, as {@code JsonNode.toString()} would write them; a record whose JSON is longer than
 * the size limit is rubbed out again, and {@link ValueWriter} writes it the tree's way, cut.
 * Thread-safe.
 */
final class RecordValues {
  /** What never changes for a shape: its names encoded, and which are secret. */
  private record Names(byte[][] encoded, boolean[] secret, int[] jsonLength) {}

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
    long json;
    try {
      json = object(record, shape, out);
    } catch (ReflectiveOperationException | RuntimeException e) {
      json = Long.MAX_VALUE;
    }
    if (json > maxChars) {
      out.rewind(mark);
      return false;
    }
    return true;
  }

  /** Writes the object; the length of its JSON text. */
  private long object(Object record, RecordShape shape, SmileOut out)
      throws ReflectiveOperationException {
    Names n = names.computeIfAbsent(shape, this::names);
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
        json += value(record, components.get(i), out);
      }
    }
    out.endObject();
    return components.isEmpty() ? 2 : json;
  }

  private long value(Object record, RecordShape.Component c, SmileOut out)
      throws ReflectiveOperationException {
    switch (c.kind()) {
      case INT -> {
        int v = c.field().getInt(record);
        out.number(v);
        return digits(v);
      }
      case LONG -> {
        long v = c.field().getLong(record);
        out.number(v);
        return digits(v);
      }
      case DOUBLE -> {
        return number(c.field().getDouble(record), out);
      }
      case BOOLEAN -> {
        boolean v = c.field().getBoolean(record);
        out.bool(v);
        return v ? 4 : 5;
      }
      default -> {
        return reference(c, c.field().get(record), out);
      }
    }
  }

  private long reference(RecordShape.Component c, Object v, SmileOut out)
      throws ReflectiveOperationException {
    if (v == null) {
      out.nullValue();
      return 4;
    }
    return switch (c.kind()) {
      case STRING -> string((String) v, out);
      case ENUM -> string(((Enum<?>) v).name(), out);
      case TEXT -> string(v.toString(), out);
      case BOXED_BOOLEAN -> {
        boolean b = (Boolean) v;
        out.bool(b);
        yield b ? 4 : 5;
      }
      case BOXED_NUMBER -> boxed((Number) v, out);
      case RECORD -> object(v, c.nested(), out);
      default -> throw new IllegalStateException("a primitive component read as an object");
    };
  }

  private static long boxed(Number v, SmileOut out) {
    if (v instanceof Double d) {
      return number(d, out);
    }
    if (v instanceof Long l) {
      out.number(l.longValue());
      return digits(l);
    }
    int i = v.intValue(); // Integer, Short, Byte: written as an int, as Smile's generator does
    out.number(i);
    return digits(i);
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

  private static long number(double v, SmileOut out) {
    out.number(v);
    int text = Double.toString(v).length();
    return Double.isFinite(v) ? text : text + 2; // NaN and the infinities are written quoted
  }

  private long string(String s, SmileOut out) {
    String redacted = redaction.text(s);
    out.string(redacted);
    return jsonLength(redacted);
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
