package dev.vigil.observe;

/**
 * The fast path of the first reading's payload check ({@link EventWire#readHeader}): one pass over
 * a Smile payload's bytes that answers only for payloads it is sure of, those whose every value
 * Jackson's parser reads without error, walked as {@link EventWire#walk} walks them; for anything
 * else it answers {@link #UNSURE} and the parser decides, so every defect is still found and worded
 * by one reader. It is sure of a common subset of Smile: objects and arrays nested at most {@value
 * #MAX_DEPTH} deep, names in ASCII (and back-references to names read before), ASCII strings,
 * {@code null}, booleans, and integers and doubles of the sizes Jackson reads. Everything else
 * (Unicode text, big numbers, floats, binary, shared string values, a header, the end marker) is
 * left to the parser. {@code SmileScanTest} holds it to the parser's answer. Thread-safe (static).
 */
final class SmileScan {
  /** Not sure: the parser must read it. */
  static final int UNSURE = -1;

  /** Deeper nesting is left to the parser. */
  private static final int MAX_DEPTH = 64;

  /** Longer long strings are left to the parser, which limits them far above. */
  private static final int MAX_LONG_TEXT = 1 << 16;

  /** Names read, beyond which back-references are left to the parser (its table grows at 64). */
  private static final int MAX_SEEN = 64;

  private static final int START_ARRAY = 0xF8;
  private static final int END_ARRAY = 0xF9;
  private static final int START_OBJECT = 0xFA;
  private static final int END_OBJECT = 0xFB;
  private static final int END_STRING = 0xFC;
  private static final int LONG_ASCII = 0xE0;

  private final byte[] b;
  private final int end;
  private int seenNames;

  private SmileScan(byte[] b, int end) {
    this.b = b;
    this.end = end;
  }

  /**
   * Whether {@code smile} surely begins with an object that the parser reads whole without error
   * (what follows the object is not looked at, as the parser's reading of a tree ignores it); false
   * when the parser must decide.
   */
  static boolean isObject(byte[] smile) {
    return smile.length > 0
        && (smile[0] & 0xFF) == START_OBJECT
        && new SmileScan(smile, smile.length).value(0, 0) != UNSURE;
  }

  /**
   * Whether the parser surely reads, from {@code at}, {@code count} values one after the other
   * without error, and then the end of {@code smile}; false when the parser must decide. {@code
   * stringAt} (or -1) names a value, counted from 0, that must be a string, and {@code integerAt}
   * (or -1) one that must be an integer that fits a long.
   */
  static boolean values(byte[] smile, int at, int count, int stringAt, int integerAt) {
    SmileScan s = new SmileScan(smile, smile.length);
    for (int i = 0; i < count; i++) {
      if (at >= smile.length) {
        return false;
      }
      int t = smile[at] & 0xFF;
      if (i == stringAt && !isString(t)) {
        return false;
      }
      if (i == integerAt && !(t == 0x24 || t == 0x25 || t >= 0xC0 && t <= 0xDF)) {
        return false;
      }
      at = s.value(at, 0);
      if (at == UNSURE) {
        return false;
      }
    }
    return at == smile.length;
  }

  private static boolean isString(int t) {
    return t == 0x20 || t >= 0x40 && t <= 0x7F || t == LONG_ASCII;
  }

  /** The end of the value whose token is at {@code at}, or {@link #UNSURE}. */
  private int value(int at, int depth) {
    if (at >= end) {
      return UNSURE;
    }
    int t = b[at] & 0xFF;
    at++;
    if (t >= 0x20 && t <= 0x23) { // "", null, false, true
      return at;
    }
    if (t >= 0x40 && t <= 0x7F) { // tiny and short ASCII strings, 1 to 64 bytes
      return ascii(at, (t & 0x3F) + 1);
    }
    if (t >= 0xC0 && t <= 0xDF) { // small integers
      return at;
    }
    switch (t) {
      case 0x24:
        return vint(at);
      case 0x25:
        return vlong(at);
      case 0x29:
        return seven(at, 10); // a double: ten 7-bit bytes
      case LONG_ASCII:
        return longAscii(at);
      case START_ARRAY:
        return depth + 1 > MAX_DEPTH ? UNSURE : array(at, depth + 1);
      case START_OBJECT:
        return depth + 1 > MAX_DEPTH ? UNSURE : object(at, depth + 1);
      default:
        return UNSURE;
    }
  }

  private int array(int at, int depth) {
    while (at < end) {
      if ((b[at] & 0xFF) == END_ARRAY) {
        return at + 1;
      }
      at = value(at, depth);
      if (at == UNSURE) {
        return UNSURE;
      }
    }
    return UNSURE;
  }

  private int object(int at, int depth) {
    while (at < end) {
      int t = b[at] & 0xFF;
      at++;
      if (t == END_OBJECT) {
        return at;
      }
      if (t >= 0x80 && t <= 0xBF) { // a short ASCII name, 1 to 64 bytes, read into the table
        at = ascii(at, (t & 0x3F) + 1);
        if (at == UNSURE || seenNames >= MAX_SEEN) {
          return UNSURE;
        }
        seenNames++;
      } else if (t >= 0x40 && t <= 0x7F) { // a name read before
        if ((t & 0x3F) >= seenNames) {
          return UNSURE;
        }
      } else if (t != 0x20) { // not the empty name
        return UNSURE;
      }
      at = value(at, depth);
      if (at == UNSURE) {
        return UNSURE;
      }
    }
    return UNSURE;
  }

  /** {@code length} bytes of ASCII. */
  private int ascii(int at, int length) {
    if (length > end - at) {
      return UNSURE;
    }
    for (int i = at; i < at + length; i++) {
      if (b[i] < 0) {
        return UNSURE;
      }
    }
    return at + length;
  }

  /** ASCII up to its end marker. */
  private int longAscii(int at) {
    int limit = Math.min(end, at + MAX_LONG_TEXT);
    for (int i = at; i < limit; i++) {
      int c = b[i] & 0xFF;
      if (c == END_STRING) {
        return i + 1;
      }
      if (c >= 0x80) {
        return UNSURE;
      }
    }
    return UNSURE;
  }

  /** A 32-bit variable-length integer: up to four 7-bit bytes, then one that ends it. */
  private int vint(int at) {
    for (int i = 0; i < 5 && at + i < end; i++) {
      if (b[at + i] < 0) {
        return at + i + 1;
      }
    }
    return UNSURE;
  }

  /**
   * A 64-bit variable-length integer as the parser reads it: four bytes whatever they hold, then up
   * to seven more, the last ending it.
   */
  private int vlong(int at) {
    for (int i = 4; i < 11 && at + i < end; i++) {
      if (b[at + i] < 0) {
        return at + i + 1;
      }
    }
    return UNSURE;
  }

  /** {@code n} bytes of 7 bits each. */
  private int seven(int at, int n) {
    if (n > end - at) {
      return UNSURE;
    }
    for (int i = at; i < at + n; i++) {
      if (b[i] < 0) {
        return UNSURE;
      }
    }
    return at + n;
  }
}
