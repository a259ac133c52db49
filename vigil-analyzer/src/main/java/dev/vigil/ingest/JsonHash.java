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
   * @throws NotWritten when the tree holds a node type this class does not write as Jackson does
   */
  static long hash(long h, JsonNode node) throws NotWritten {
    Class<?> type = node.getClass();
    if (type == TextNode.class) {
      return string(h, node.textValue());
    }
    if (type == ObjectNode.class) {
      h = step(h, '{');
      boolean first = true;
      for (Map.Entry<String, JsonNode> f : node.properties()) {
        if (!first) {
          h = step(h, ',');
        }
        first = false;
        h = step(string(h, f.getKey()), ':');
        h = hash(h, f.getValue());
      }
      return step(h, '}');
    }
    if (type == IntNode.class || type == LongNode.class) {
      return ascii(h, Long.toString(node.longValue()));
    }
    if (type == DoubleNode.class) {
      double d = node.doubleValue();
      if (!Double.isFinite(d)) {
        throw NotWritten.INSTANCE;
      }
      return ascii(h, Double.toString(d));
    }
    if (type == ArrayNode.class) {
      h = step(h, '[');
      for (int i = 0, n = node.size(); i < n; i++) {
        if (i > 0) {
          h = step(h, ',');
        }
        h = hash(h, node.get(i));
      }
      return step(h, ']');
    }
    if (type == BooleanNode.class) {
      return ascii(h, node.booleanValue() ? "true" : "false");
    }
    if (type == NullNode.class) {
      return ascii(h, "null");
    }
    if (type == BigIntegerNode.class) {
      return ascii(h, node.bigIntegerValue().toString());
    }
    throw NotWritten.INSTANCE;
  }

  /** One byte of FNV-1a. */
  private static long step(long h, int b) {
    return (h ^ b) * FNV_PRIME;
  }

  /** Characters that are their own bytes and need no escape (numbers, literals). */
  private static long ascii(long h, String s) {
    for (int i = 0, n = s.length(); i < n; i++) {
      h = step(h, s.charAt(i));
    }
    return h;
  }

  /**
   * A quoted string as Jackson writes it: {@code \"} and {@code \\}, the short escapes of five
   * control characters, {@code \\uXXXX} for the other control characters and for each surrogate
   * (paired or not, as Jackson writes it by default); any other character in UTF-8.
   */
  private static long string(long h, String s) {
    h = step(h, '"');
    for (int i = 0, n = s.length(); i < n; i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c < 0x80) {
        h = c == '"' || c == '\\' ? step(step(h, '\\'), c) : step(h, c);
      } else if (c < 0x20) {
        h = SHORT_ESCAPE[c] != 0 ? step(step(h, '\\'), SHORT_ESCAPE[c]) : unicodeEscape(h, c);
      } else if (c < 0x800) {
        h = step(step(h, 0xC0 | (c >> 6)), 0x80 | (c & 0x3F));
      } else if (Character.isSurrogate(c)) {
        h = unicodeEscape(h, c);
      } else {
        h = step(step(step(h, 0xE0 | (c >> 12)), 0x80 | ((c >> 6) & 0x3F)), 0x80 | (c & 0x3F));
      }
    }
    return step(h, '"');
  }

  /** {@code \\u} and the char's four hex digits, upper case. */
  private static long unicodeEscape(long h, char c) {
    h = step(step(h, '\\'), 'u');
    h = step(step(h, HEX[c >> 12]), HEX[(c >> 8) & 0xF]);
    return step(step(h, HEX[(c >> 4) & 0xF]), HEX[c & 0xF]);
  }
}
