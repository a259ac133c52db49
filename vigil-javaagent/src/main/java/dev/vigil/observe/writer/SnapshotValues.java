package dev.vigil.observe.writer;

import dev.vigil.observe.SmileOut;
import dev.vigil.observe.agent.Redaction;
import dev.vigil.observe.capture.Snapshot;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Writes a {@link Snapshot} (an object's JSON as Smile bytes) into an event's payload: what {@link
 * ValueWriter} writes for its JSON tree (the values of secret names masked, the patterns applied to
 * every string), without making the tree. It walks the Smile tokens and copies their bytes as they
 * are, decoding only what redaction must look at: a name (whose secrecy is kept per name) and a
 * string that holds more than ASCII or the beginning of a pattern. It bounds the characters of the
 * value's JSON as it goes (a string at most six a character, a number at most its longest text);
 * when the bound passes the size limit, or the value is not an object or an array, or it holds a
 * token that Vigil's mapper does not write (binary, back-references), it writes nothing and {@link
 * ValueWriter} takes the tree's way, which cuts the value exactly. Smile's format:
 * https://github.com/FasterXML/smile-format-specification. Thread-safe.
 */
final class SnapshotValues {
  /** A bound beyond any size limit: the value is written the tree's way. */
  private static final long TOO_LONG = 1L << 32;

  /** The longest texts of an int, a long, a float and a double (or a quoted NaN or infinity). */
  private static final int INT_CHARS = 11;

  private static final int LONG_CHARS = 20;
  private static final int FLOAT_CHARS = 17;
  private static final int DOUBLE_CHARS = 26;

  private static final int START_ARRAY = 0xF8;
  private static final int END_ARRAY = 0xF9;
  private static final int START_OBJECT = 0xFA;
  private static final int END_OBJECT = 0xFB;
  private static final int END_STRING = 0xFC;

  /** A name whose secrecy is known: its bytes and the answer (final fields: safe to share). */
  private static final class Name {
    final byte[] bytes;
    final boolean secret;

    Name(byte[] bytes, boolean secret) {
      this.bytes = bytes;
      this.secret = secret;
    }
  }

  /** Names whose secrecy is known, a slot by their bytes' hash (a slot holds the last one seen). */
  private static final int NAME_SLOTS = 256;

  private final Redaction redaction;
  private final int maxChars;
  private final Name[] names = new Name[NAME_SLOTS];

  SnapshotValues(Redaction redaction, int maxChars) {
    this.redaction = redaction;
    this.maxChars = maxChars;
  }

  /** Where the walk is in a snapshot's bytes. */
  private static final class Cursor {
    final byte[] b;
    int at;

    Cursor(byte[] b) {
      this.b = b;
    }

    int peek() {
      return b[at] & 0xFF;
    }
  }

  /** Writes the snapshot; false, with nothing written, when it must be written the tree's way. */
  boolean write(Snapshot snapshot, SmileOut out) {
    int mark = out.mark();
    Cursor c = new Cursor(snapshot.smile());
    try {
      int first = c.peek();
      if ((first == START_OBJECT || first == START_ARRAY)
          && value(c, out) <= maxChars
          && c.at == c.b.length) {
        return true;
      }
    } catch (RuntimeException malformed) { // past the end: not bytes Vigil's mapper writes
      // the tree's way
    }
    out.rewind(mark);
    return false;
  }

  /**
   * Copies the value at the cursor to {@code out} (skips it when {@code out} is null); a bound of
   * the characters of its JSON, or {@link #TOO_LONG}.
   */
  private long value(Cursor c, SmileOut out) {
    int at = c.at;
    int t = c.peek();
    if (t == START_OBJECT || t == START_ARRAY) {
      return container(c, out, t == START_OBJECT);
    }
    if (t >= 0x40 && t < 0x80) { // tiny and short ASCII
      int n = (t & 0x1F) + (t < 0x60 ? 1 : 33);
      return ascii(c, out, at + 1, n, at + 1 + n);
    }
    if (t >= 0x80 && t < 0xC0) { // tiny and short Unicode
      int n = (t & 0x1F) + (t < 0xA0 ? 2 : 34);
      return unicode(c, out, at + 1, n, at + 1 + n);
    }
    if (t >= 0xC0 && t < 0xE0) { // small int
      return copy(c, out, at + 1, INT_CHARS);
    }
    return switch (t) {
      case 0x20 -> copy(c, out, at + 1, 2); // ""
      case 0x21, 0x23 -> copy(c, out, at + 1, 4); // null, true
      case 0x22 -> copy(c, out, at + 1, 5); // false
      case 0x24 -> copy(c, out, vintEnd(c.b, at + 1), INT_CHARS);
      case 0x25 -> copy(c, out, vintEnd(c.b, at + 1), LONG_CHARS);
      case 0x26 -> bigInteger(c, out, at);
      case 0x28 -> copy(c, out, at + 6, FLOAT_CHARS);
      case 0x29 -> copy(c, out, at + 11, DOUBLE_CHARS);
      case 0x2A -> bigDecimal(c, out, at);
      case 0xE0 -> { // long ASCII, up to its end marker
        int end = endOfString(c.b, at + 1);
        yield ascii(c, out, at + 1, end - at - 1, end + 1);
      }
      case 0xE4 -> { // long Unicode
        int end = endOfString(c.b, at + 1);
        yield unicode(c, out, at + 1, end - at - 1, end + 1);
      }
      default -> TOO_LONG; // binary, back-references, the end of content: not Vigil's mapper's
    };
  }

  private long container(Cursor c, SmileOut out, boolean object) {
    copy(c, out, c.at + 1, 0);
    long json = 2; // the brackets
    int members = 0;
    int end = object ? END_OBJECT : END_ARRAY;
    while (c.peek() != end) {
      if (object) {
        int at = c.at;
        int t = c.peek();
        int from = at + 1;
        int n;
        boolean ascii = true;
        int next;
        if (t == 0x20) { // ""
          n = 0;
          next = from;
        } else if (t >= 0x80 && t < 0xC0) {
          n = (t & 0x3F) + 1;
          next = from + n;
        } else if (t >= 0xC0 && t < 0xF8) {
          n = (t & 0x3F) + 2;
          ascii = false;
          next = from + n;
        } else if (t == 0x34) { // long Unicode name
          n = endOfString(c.b, from) - from;
          ascii = false;
          next = from + n + 1;
        } else {
          return TOO_LONG; // a back-reference to an earlier name: not Vigil's mapper's
        }
        if (next > c.b.length) {
          return TOO_LONG;
        }
        boolean secret = isSecret(c.b, from, n, ascii);
        copy(c, out, next, 0);
        json += 6L * n + 3; // quoted, and the colon
        if (secret) {
          if (value(c, null) >= TOO_LONG) {
            return TOO_LONG;
          }
          if (out != null) {
            out.string(Redaction.MASK);
          }
          json += Redaction.MASK.length() + 2;
        } else {
          json += value(c, out);
        }
      } else {
        json += value(c, out);
      }
      members++;
      if (json > maxChars) {
        return TOO_LONG;
      }
    }
    copy(c, out, c.at + 1, 0);
    return members == 0 ? json : json + members - 1; // the commas
  }

  /**
   * An ASCII string whose {@code n} characters start at {@code from}, its token ending before
   * {@code next}: copied when the patterns leave it as it is, else written redacted.
   */
  private long ascii(Cursor c, SmileOut out, int from, int n, int next) {
    if (next > c.b.length) {
      return TOO_LONG;
    }
    if (out == null || redaction.unchangedAscii(c.b, from, n)) {
      return copy(c, out, next, 6L * n + 2);
    }
    String s = new String(c.b, from, n, StandardCharsets.ISO_8859_1);
    return redacted(c, out, s, next);
  }

  /** A string of {@code n} UTF-8 bytes (not all ASCII) at {@code from}; as {@link #ascii}. */
  private long unicode(Cursor c, SmileOut out, int from, int n, int next) {
    if (next > c.b.length) {
      return TOO_LONG;
    }
    if (out == null) {
      return copy(c, null, next, 6L * n + 2);
    }
    return redacted(c, out, new String(c.b, from, n, StandardCharsets.UTF_8), next);
  }

  /** The string {@code s}, whose token ends before {@code next}, with the patterns applied. */
  private long redacted(Cursor c, SmileOut out, String s, int next) {
    String r = redaction.text(s);
    if (r.equals(s)) {
      return copy(c, out, next, 6L * s.length() + 2);
    }
    out.string(r);
    c.at = next;
    return 6L * r.length() + 2;
  }

  private static long bigInteger(Cursor c, SmileOut out, int at) {
    int lengthEnd = vintEnd(c.b, at + 1);
    long n = vint(c.b, at + 1, lengthEnd);
    return copy(c, out, sevenBitEnd(lengthEnd, n), 3 + 3 * n); // 8 bits a byte: < 2.5 digits
  }

  private static long bigDecimal(Cursor c, SmileOut out, int at) {
    int scaleEnd = vintEnd(c.b, at + 1);
    int lengthEnd = vintEnd(c.b, scaleEnd);
    long n = vint(c.b, scaleEnd, lengthEnd);
    // the digits, a sign, a point, and the longer of leading zeros and an exponent
    return copy(c, out, sevenBitEnd(lengthEnd, n), 3 * n + 25);
  }

  /** Where {@code n} raw bytes written 7 bits a byte from {@code from} end. */
  private static int sevenBitEnd(int from, long n) {
    return Math.toIntExact(from + (n * 8 + 6) / 7);
  }

  /**
   * Copies the bytes from the cursor up to {@code next} to {@code out} (when not null) and moves
   * there; {@code json}.
   */
  private static long copy(Cursor c, SmileOut out, int next, long json) {
    if (next > c.b.length) {
      return TOO_LONG;
    }
    if (out != null) {
      out.raw(c.b, c.at, next - c.at);
    }
    c.at = next;
    return json;
  }

  /** Where a variable-length integer starting at {@code from} ends (after its last byte). */
  private static int vintEnd(byte[] b, int from) {
    int at = from;
    while (b[at] >= 0) { // the last byte has its high bit set
      at++;
    }
    return at + 1;
  }

  /** The value of the unsigned variable-length integer from {@code from} to {@code end}. */
  private static long vint(byte[] b, int from, int end) {
    long v = 0;
    for (int i = from; i < end - 1; i++) {
      v = (v << 7) | b[i];
    }
    return (v << 6) | (b[end - 1] & 0x3F);
  }

  /** Where the end marker of a long string or name that starts at {@code from} is. */
  private static int endOfString(byte[] b, int from) {
    int at = from;
    while ((b[at] & 0xFF) != END_STRING) {
      at++;
    }
    return at;
  }

  /** Whether the name of {@code n} bytes at {@code from} is a secret's. */
  private boolean isSecret(byte[] b, int from, int n, boolean ascii) {
    // a slot by the length and three of the bytes: cheap, and the bytes are compared anyway
    int h = n;
    if (n > 0) {
      h = 31 * (31 * (31 * h + b[from]) + b[from + n / 2]) + b[from + n - 1];
    }
    int slot = (h ^ (h >>> 8)) & (NAME_SLOTS - 1);
    Name known = names[slot];
    if (known != null && Arrays.equals(known.bytes, 0, known.bytes.length, b, from, from + n)) {
      return known.secret;
    }
    String name =
        new String(b, from, n, ascii ? StandardCharsets.ISO_8859_1 : StandardCharsets.UTF_8);
    boolean secret = redaction.isSecretName(name);
    names[slot] = new Name(Arrays.copyOfRange(b, from, from + n), secret);
    return secret;
  }
}
