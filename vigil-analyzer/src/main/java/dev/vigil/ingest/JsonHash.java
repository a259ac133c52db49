package dev.vigil.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.BigIntegerNode;
import com.fasterxml.jackson.databind.node.BooleanNode;
import com.fasterxml.jackson.databind.node.DoubleNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.Map;

/**
 * FNV-1a over the bytes Jackson's default mapper writes for a payload tree (compact JSON, UTF-8),
 * hashed as they would be written, with no generator and no buffer: the content identity's payload
 * part ({@link EventIdentity#ofContent}), whose values existing banks hold. It knows the node types
 * a JSON reading builds (objects, arrays, strings, booleans, null, and numbers read as int, long,
 * big integer or finite double) and strings of any characters; for anything else {@link #hash}
 * throws {@link NotWritten} and the caller lets Jackson write the tree.
 */
final class JsonHash {
  static final long FNV_PRIME = 0x100000001b3L;

  private static final byte[] HEX =
      "0123456789ABCDEF".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  /** The short escapes Jackson writes for control characters; 0 where it writes {@code \\u00XX}. */
  private static final char[] SHORT_ESCAPE = new char[32];

  static {
    SHORT_ESCAPE['\b'] = 'b';
    SHORT_ESCAPE['\t'] = 't';
    SHORT_ESCAPE['\n'] = 'n';
    SHORT_ESCAPE['\f'] = 'f';
    SHORT_ESCAPE['\r'] = 'r';
  }

  /** The tree holds something only Jackson's own writer is trusted to write. */
  static final class NotWritten extends Exception {
    private static final long serialVersionUID = 1L;
    static final NotWritten INSTANCE = new NotWritten();

    private NotWritten() {
      super("not written by JsonHash", null, false, false);
    }
  }

  private JsonHash() {}

  /**
   * {@code h} advanced over the JSON bytes of {@code node}.
   *
   * @throws NotWritten when the tree holds a node type or a string this class does not write as
   *     Jackson does
   */
  static long hash(long h, JsonNode node) throws NotWritten {
    Class<?> type = node.getClass();
    if (type == TextNode.class) {
      return string(h, node.textValue());
    }
    if (type == ObjectNode.class) {
      h = ascii(h, '{');
      boolean first = true;
      for (Map.Entry<String, JsonNode> f : node.properties()) {
        if (!first) {
          h = ascii(h, ',');
        }
        first = false;
        h = ascii(string(h, f.getKey()), ':');
        h = hash(h, f.getValue());
      }
      return ascii(h, '}');
    }
    if (type == IntNode.class || type == LongNode.class) {
      return number(h, node.longValue());
    }
    if (type == DoubleNode.class) {
      double d = node.doubleValue();
      if (!Double.isFinite(d)) {
        throw NotWritten.INSTANCE;
      }
      return latin1(h, Double.toString(d));
    }
    if (type == ArrayNode.class) {
      h = ascii(h, '[');
      for (int i = 0, n = node.size(); i < n; i++) {
        if (i > 0) {
          h = ascii(h, ',');
        }
        h = hash(h, node.get(i));
      }
      return ascii(h, ']');
    }
    if (type == BooleanNode.class) {
      return latin1(h, node.booleanValue() ? "true" : "false");
    }
    if (type == NullNode.class) {
      return latin1(h, "null");
    }
    if (type == BigIntegerNode.class) {
      return latin1(h, node.bigIntegerValue().toString());
    }
    throw NotWritten.INSTANCE;
  }

  private static long ascii(long h, char c) {
    return (h ^ c) * FNV_PRIME;
  }

  /** A string of ASCII characters that need no escape (numbers, literals). */
  private static long latin1(long h, String s) {
    for (int i = 0, n = s.length(); i < n; i++) {
      h = (h ^ s.charAt(i)) * FNV_PRIME;
    }
    return h;
  }

  private static long number(long h, long v) {
    return latin1(h, Long.toString(v));
  }

  /**
   * A quoted string as Jackson writes it: its escapes for controls, quote and backslash, and each
   * surrogate escaped as {@code \\uXXXX}; other characters in UTF-8.
   */
  private static long string(long h, String s) throws NotWritten {
    h = ascii(h, '"');
    for (int i = 0, n = s.length(); i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        if (c >= 0x20 && c != '"' && c != '\\') {
          h = (h ^ c) * FNV_PRIME;
        } else if (c >= 0x20) {
          h = ascii(ascii(h, '\\'), c);
        } else if (SHORT_ESCAPE[c] != 0) {
          h = ascii(ascii(h, '\\'), SHORT_ESCAPE[c]);
        } else {
          h = ascii(ascii(ascii(ascii(h, '\\'), 'u'), '0'), '0');
          h = (h ^ HEX[c >> 4]) * FNV_PRIME;
          h = (h ^ HEX[c & 0xF]) * FNV_PRIME;
        }
      } else if (c < 0x800) {
        h = (h ^ (0xC0 | (c >> 6))) * FNV_PRIME;
        h = (h ^ (0x80 | (c & 0x3F))) * FNV_PRIME;
      } else if (Character.isSurrogate(c)) {
        // each half escaped on its own, paired or not, as Jackson writes it by default
        h = ascii(ascii(h, '\\'), 'u');
        h = (h ^ HEX[c >> 12]) * FNV_PRIME;
        h = (h ^ HEX[(c >> 8) & 0xF]) * FNV_PRIME;
        h = (h ^ HEX[(c >> 4) & 0xF]) * FNV_PRIME;
        h = (h ^ HEX[c & 0xF]) * FNV_PRIME;
      } else {
        h = (h ^ (0xE0 | (c >> 12))) * FNV_PRIME;
        h = (h ^ (0x80 | ((c >> 6) & 0x3F))) * FNV_PRIME;
        h = (h ^ (0x80 | (c & 0x3F))) * FNV_PRIME;
      }
    }
    return ascii(h, '"');
  }
}
