package dev.vigil.observe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The fast path of reading a payload's Smile: one pass over its bytes that answers only for
 * payloads it is sure of, those whose every value Jackson's parser reads without error, and then
 * checks them (the first reading, {@link EventWire#readHeader}, as {@link EventWire#walk} walks
 * them) or builds their tree, node for node what {@link PayloadTree} builds from the parser's
 * tokens (the second reading). For anything else it answers {@link #UNSURE} (or null) and the
 * parser decides, so every defect is still found and worded by one reader. It is sure of a common
 * subset of Smile: objects and arrays nested at most {@value #MAX_DEPTH} deep, names in ASCII (and
 * back-references to names read before), ASCII strings, {@code null}, booleans, and integers and
 * doubles of the sizes Jackson reads. Everything else (Unicode text, big numbers, floats, binary,
 * shared string values, a header, the end marker) is left to the parser. {@code SmileScanTest}
 * holds it to the parser's answer and tree. Thread-safe (static).
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

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final byte[] b;
  private final int end;
  private int seenNames;

  /** Whether it builds the tree, or only checks. */
  private final boolean build;

  /** The names read, for back-references, when building; made at the first name, grown by half. */
  private String[] seen;

  /** The value last read, when building. */
  private JsonNode node;

  private SmileScan(byte[] b, int end, boolean build) {
    this.b = b;
    this.end = end;
    this.build = build;
  }

  /**
   * Whether {@code smile} surely begins with an object that the parser reads whole without error
   * (what follows the object is not looked at, as the parser's reading of a tree ignores it); false
   * when the parser must decide.
   */
  static boolean isObject(byte[] smile) {
    return smile.length > 0
        && (smile[0] & 0xFF) == START_OBJECT
        && new SmileScan(smile, smile.length, false).value(0, 0) != UNSURE;
  }

  /**
   * Whether the parser surely reads, from {@code at}, {@code count} values one after the other
   * without error, and then the end of {@code smile}; false when the parser must decide. {@code
   * stringAt} (or -1) names a value, counted from 0, that must be a string, and {@code integerAt}
   * (or -1) one that must be an integer that fits a long.
   */
  static boolean values(byte[] smile, int at, int count, int stringAt, int integerAt) {
    SmileScan s = new SmileScan(smile, smile.length, false);
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

  /**
   * The tree of the object {@code smile} begins with, as {@link PayloadTree#object} builds it from
   * the parser, or null when the parser must read it.
   */
  static ObjectNode object(byte[] smile) {
    if (smile.length == 0 || (smile[0] & 0xFF) != START_OBJECT) {
      return null;
    }
    SmileScan s = new SmileScan(smile, smile.length, true);
    return s.value(0, 0) == UNSURE ? null : (ObjectNode) s.node;
  }

  /**
   * The trees of the {@code count} values that follow {@code at}, as {@link PayloadTree#value}
   * builds each from the parser, when it is sure of them and nothing follows them in {@code smile}
   * (as {@link #values}); else null. One walk, checking and building.
   */
  static JsonNode[] trees(byte[] smile, int at, int count) {
    SmileScan s = new SmileScan(smile, smile.length, true);
    JsonNode[] out = new JsonNode[count];
    for (int i = 0; i < count; i++) {
      at = s.value(at, 0);
      if (at == UNSURE) {
        return null;
      }
      out[i] = s.node;
    }
    return at == smile.length ? out : null;
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
      if (build) {
        node =
            t == 0x20
                ? NODES.textNode("")
                : t == 0x21 ? NODES.nullNode() : NODES.booleanNode(t == 0x23);
      }
      return at;
    }
    if (t >= 0x40 && t <= 0x7F) { // tiny and short ASCII strings, 1 to 64 bytes
      int length = (t & 0x3F) + 1;
      int next = ascii(at, length);
      if (build && next != UNSURE) {
        node = NODES.textNode(new String(b, at, length, StandardCharsets.ISO_8859_1));
      }
      return next;
    }
    if (t >= 0xC0 && t <= 0xDF) { // small integers
      if (build) {
        node = NODES.numberNode(zigzag(t & 0x1F));
      }
      return at;
    }
    switch (t) {
      case 0x24:
        return vint(at);
      case 0x25:
        return vlong(at);
      case 0x29:
        return dbl(at);
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
    ArrayNode a = build ? NODES.arrayNode() : null;
    while (at < end) {
      if ((b[at] & 0xFF) == END_ARRAY) {
        node = a;
        return at + 1;
      }
      at = value(at, depth);
      if (at == UNSURE) {
        return UNSURE;
      }
      if (a != null) {
        a.add(node);
      }
    }
    return UNSURE;
  }

  private int object(int at, int depth) {
    ObjectNode o = build ? NODES.objectNode() : null;
    while (at < end) {
      int t = b[at] & 0xFF;
      at++;
      if (t == END_OBJECT) {
        node = o;
        return at;
      }
      String name = "";
      if (t >= 0x80 && t <= 0xBF) { // a short ASCII name, 1 to 64 bytes, read into the table
        int length = (t & 0x3F) + 1;
        int next = ascii(at, length);
        if (next == UNSURE || seenNames >= MAX_SEEN) {
          return UNSURE;
        }
        if (build) {
          name = new String(b, at, length, StandardCharsets.ISO_8859_1);
          if (seen == null || seenNames == seen.length) {
            seen = seen == null ? new String[8] : Arrays.copyOf(seen, seenNames + seenNames / 2);
          }
          seen[seenNames] = name;
        }
        seenNames++;
        at = next;
      } else if (t >= 0x40 && t <= 0x7F) { // a name read before
        if ((t & 0x3F) >= seenNames) {
          return UNSURE;
        }
        name = build ? seen[t & 0x3F] : name;
      } else if (t != 0x20) { // not the empty name
        return UNSURE;
      }
      at = value(at, depth);
      if (at == UNSURE) {
        return UNSURE;
      }
      if (o != null) {
        o.replace(name, node); // a repeated name: its last value, in its first place
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
        if (build) {
          node = NODES.textNode(new String(b, at, i - at, StandardCharsets.ISO_8859_1));
        }
        return i + 1;
      }
      if (c >= 0x80) {
        return UNSURE;
      }
    }
    return UNSURE;
  }

  /**
   * A 32-bit variable-length integer: up to four bytes of 7 bits, then one whose high bit ends it
   * with 6 more, zigzag-encoded.
   */
  private int vint(int at) {
    int value = 0;
    for (int i = 0; i < 5 && at + i < end; i++) {
      int x = b[at + i];
      if (x < 0) {
        if (build) {
          node = NODES.numberNode(zigzag((value << 6) + (x & 0x3F)));
        }
        return at + i + 1;
      }
      value = (value << 7) + x;
    }
    return UNSURE;
  }

  /**
   * A 64-bit variable-length integer as the parser reads it: four bytes (sure of them only when
   * each holds 7 bits), then up to seven more, the last ending it.
   */
  private int vlong(int at) {
    long value = 0;
    for (int i = 0; i < 11 && at + i < end; i++) {
      int x = b[at + i];
      if (x < 0 && i >= 4) {
        if (build) {
          long v = (value << 6) + (x & 0x3F);
          node = NODES.numberNode((v >>> 1) ^ -(v & 1));
        }
        return at + i + 1;
      }
      if (x < 0) {
        return UNSURE;
      }
      value = (value << 7) + x;
    }
    return UNSURE;
  }

  /** A double: its 64 bits in ten bytes of 7 bits. */
  private int dbl(int at) {
    if (10 > end - at) {
      return UNSURE;
    }
    long bits = 0;
    for (int i = at; i < at + 10; i++) {
      if (b[i] < 0) {
        return UNSURE;
      }
      bits = (bits << 7) + b[i];
    }
    if (build) {
      node = NODES.numberNode(Double.longBitsToDouble(bits));
    }
    return at + 10;
  }

  private static int zigzag(int v) {
    return (v >>> 1) ^ -(v & 1);
  }
}
