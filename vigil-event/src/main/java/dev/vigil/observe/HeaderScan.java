package dev.vigil.observe;

import java.nio.charset.StandardCharsets;
import java.time.DateTimeException;
import java.time.ZoneId;

/**
 * The fast path of {@link EventJson#readHeader}: one pass over a line's bytes that checks its JSON
 * and takes {@code ts} and {@code agent}, without a parser object, a token stream or a string per
 * name (docs/COMMANDS.md#memory). It only ever answers for lines it is sure of: a valid event line,
 * its header exactly what Jackson's reading gives. For anything else (a defect of any kind, a field
 * of the header written with escapes, a nesting, string or number longer than its small limits,
 * bytes outside strings that are not JSON) it answers {@code null} and the parser reads the line,
 * so every defect is still named, counted and worded by one reader.
 *
 * <p>It is strict where Jackson is (JSON of RFC 8259: no comments, trailing commas, leading zeros,
 * bare words, control characters or unknown escapes in strings), and stricter: text that is not
 * well-formed UTF-8 is left to the parser, whichever way the parser then decides. {@code
 * HeaderScanFuzzTest} holds it to the parser's answer.
 */
final class HeaderScan {
  /** Deeper nesting is left to the parser (whose own limit is far above). */
  private static final int MAX_DEPTH = 64;

  /**
   * Longer strings (in bytes) are left to the parser, which limits them to 20,000,000 characters by
   * default.
   */
  private static final int MAX_TEXT = 1 << 20;

  /** Longer names (in bytes) are left to the parser, which limits them to 50,000 characters. */
  private static final int MAX_NAME = 10_000;

  /** Longer numbers are left to the parser (its limit is 1,000 characters). */
  private static final int MAX_NUMBER = 100;

  /** The longest {@code seq} or {@code pid} that always fits a {@code long}, sign included. */
  private static final int MAX_INTEGER = 18;

  private static final int FAIL = -1;

  /** For each byte value: whether a string may hold it as it is (printable ASCII but " and \). */
  private static final boolean[] PLAIN = new boolean[256];

  static {
    for (int c = 0x20; c < 0x80; c++) {
      PLAIN[c] = c != '"' && c != '\\';
    }
  }

  /** What a top-level name is, for the checks of {@link EventJson#readHeader}. */
  private enum Field {
    TS,
    AGENT,
    KIND,
    STATUS,
    PAYLOAD,
    INTEGER,
    STRING,
    OTHER
  }

  private final byte[] b;
  private final int end;

  /** Where the last plain string's text began (after its quote), for {@link #text}. */
  private int textStart;

  // what the line's top-level fields hold so far
  private String ts;
  private String agent;
  private boolean kind;
  private boolean status;
  private boolean payload;

  private HeaderScan(byte[] b, int end) {
    this.b = b;
    this.end = end;
  }

  /**
   * The header of the line {@code utf8[offset, offset + length)}, or null when the parser must read
   * it.
   */
  static EventJson.Header read(byte[] utf8, int offset, int length, ZoneId assumeZone) {
    return new HeaderScan(utf8, offset + length).header(offset, assumeZone);
  }

  private EventJson.Header header(int from, ZoneId assumeZone) {
    int i = ws(from);
    if (i >= end || b[i] != '{') {
      return null;
    }
    i = ws(i + 1);
    boolean more = i < end && b[i] != '}';
    while (more) {
      i = member(i);
      if (i == FAIL) {
        return null;
      }
      i = ws(i);
      if (i >= end) {
        return null;
      }
      more = b[i] == ',';
      if (more) {
        i = ws(i + 1);
      } else if (b[i] != '}') {
        return null;
      }
    }
    if (ws(i + 1) != end || ts == null || !kind || !status || !payload) {
      return null; // text after the object, or a defect: the parser names it
    }
    Timestamps.Reading reading;
    try {
      reading = Timestamps.parse(ts, assumeZone);
    } catch (DateTimeException e) {
      return null;
    }
    return new EventJson.Header(reading.instant(), EventJson.common(agent), reading.naive());
  }

  /**
   * One top-level {@code "name": value} at {@code i}, checked as {@link EventJson#readHeader}
   * checks it (the last of a name given twice counts): the position after the value, or {@link
   * #FAIL}.
   */
  private int member(int i) {
    if (i >= end || b[i] != '"') {
      return FAIL;
    }
    int close = plainString(i + 1, MAX_NAME);
    if (close == FAIL) {
      return FAIL;
    }
    Field field = field(i + 1, close);
    i = ws(close + 1);
    if (i >= end || b[i] != ':') {
      return FAIL;
    }
    i = ws(i + 1);
    if (i >= end) {
      return FAIL;
    }
    boolean isNull = isNull(i);
    switch (field) {
      case TS, AGENT -> {
        return headerText(field, i, isNull);
      }
      case KIND -> kind = !isNull;
      case STATUS -> status = !isNull;
      case PAYLOAD -> {
        payload = !isNull;
        return isNull ? i + 4 : b[i] == '{' ? value(i, 1) : FAIL;
      }
      case INTEGER -> {
        return isNull ? i + 4 : integer(i);
      }
      case STRING -> {
        // checked below, as kind and status are
      }
      default -> {
        return value(i, 1);
      }
    }
    return isNull ? i + 4 : b[i] == '"' ? string(i + 1, MAX_TEXT) : FAIL;
  }

  /**
   * The value of {@code ts} or {@code agent} at {@code i}: null, or a string without escapes (the
   * parser decodes those). The position after it, or {@link #FAIL}.
   */
  private int headerText(Field field, int i, boolean isNull) {
    String text = null;
    int after;
    if (isNull) {
      after = i + 4;
    } else if (b[i] == '"') {
      after = plainString(i + 1, MAX_TEXT);
      if (after == FAIL) {
        return FAIL;
      }
      text = text(after++);
    } else {
      return FAIL;
    }
    if (field == Field.TS) {
      ts = text;
    } else {
      agent = text;
    }
    return after;
  }

  /** The field a top-level name {@code b[from, to)} (plain ASCII) stands for. */
  private Field field(int from, int to) {
    int n = to - from;
    if (n == 2) {
      return is(from, "ts") ? Field.TS : Field.OTHER;
    }
    if (n == 3) {
      return is(from, "seq") || is(from, "pid") ? Field.INTEGER : Field.OTHER;
    }
    if (n == 4) {
      return is(from, "kind") ? Field.KIND : is(from, "turn") ? Field.STRING : Field.OTHER;
    }
    if (n == 5) {
      return is(from, "agent") ? Field.AGENT : Field.OTHER;
    }
    if (n == 6) {
      return is(from, "status") ? Field.STATUS : is(from, "thread") ? Field.STRING : Field.OTHER;
    }
    if (n == 7) {
      if (is(from, "payload")) {
        return Field.PAYLOAD;
      }
      return is(from, "call_id") || is(from, "session") ? Field.STRING : Field.OTHER;
    }
    return Field.OTHER;
  }

  private boolean is(int from, String name) {
    for (int k = 0; k < name.length(); k++) {
      if (b[from + k] != name.charAt(k)) {
        return false;
      }
    }
    return true;
  }

  /** The text of the plain string that ends at the quote {@code close}. */
  private String text(int close) {
    return new String(b, textStart, close - textStart, StandardCharsets.ISO_8859_1);
  }

  /** After any JSON whitespace from {@code i}. */
  private int ws(int i) {
    while (i < end) {
      byte c = b[i];
      if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
        return i;
      }
      i++;
    }
    return i;
  }

  private boolean isNull(int i) {
    return i + 4 <= end && b[i] == 'n' && b[i + 1] == 'u' && b[i + 2] == 'l' && b[i + 3] == 'l';
  }

  /**
   * A string of printable ASCII without escapes, from just after its opening quote: the position of
   * its closing quote, or {@link #FAIL}.
   */
  private int plainString(int i, int maxBytes) {
    textStart = i;
    int limit = Math.min(end, i + maxBytes);
    while (i < limit && PLAIN[b[i] & 0xFF]) {
      i++;
    }
    return i < limit && b[i] == '"' ? i : FAIL;
  }

  /**
   * Any valid string of at most {@code maxBytes}, from just after its opening quote: the position
   * after its closing quote, or {@link #FAIL}.
   */
  private int string(int i, int maxBytes) {
    int limit = Math.min(end, i + maxBytes);
    while (i < limit) {
      int c = b[i] & 0xFF;
      if (PLAIN[c]) {
        i++;
      } else if (c == '"') {
        return i + 1;
      } else if (c == '\\') {
        i = escape(i + 1);
      } else if (c >= 0x80) {
        i = utf8(i, c);
      } else {
        return FAIL; // a control character
      }
      if (i == FAIL) {
        return FAIL;
      }
    }
    return FAIL;
  }

  /** The position after an escape whose backslash is just before {@code i}, or {@link #FAIL}. */
  private int escape(int i) {
    if (i >= end) {
      return FAIL;
    }
    switch (b[i]) {
      case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> {
        return i + 1;
      }
      case 'u' -> {
        if (i + 5 > end) {
          return FAIL;
        }
        for (int k = i + 1; k <= i + 4; k++) {
          if (Character.digit(b[k], 16) < 0) {
            return FAIL;
          }
        }
        return i + 5;
      }
      default -> {
        return FAIL;
      }
    }
  }

  /**
   * The position after a well-formed UTF-8 sequence of two to four bytes that begins at {@code i}
   * with {@code c}, or {@link #FAIL} (overlong forms, surrogates and code points above U+10FFFF
   * included).
   */
  private int utf8(int i, int c) {
    int n;
    int lo = 0x80;
    int hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
      n = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
      n = 2;
      lo = c == 0xE0 ? 0xA0 : 0x80;
      hi = c == 0xED ? 0x9F : 0xBF;
    } else if (c >= 0xF0 && c <= 0xF4) {
      n = 3;
      lo = c == 0xF0 ? 0x90 : 0x80;
      hi = c == 0xF4 ? 0x8F : 0xBF;
    } else {
      return FAIL;
    }
    if (i + n >= end) {
      return FAIL;
    }
    int second = b[i + 1] & 0xFF;
    if (second < lo || second > hi) {
      return FAIL;
    }
    for (int k = i + 2; k <= i + n; k++) {
      if ((b[k] & 0xC0) != 0x80) {
        return FAIL;
      }
    }
    return i + n + 1;
  }

  /**
   * Any JSON value at {@code i}, {@code depth} levels below the line's object: the position after
   * it, or {@link #FAIL}.
   */
  private int value(int i, int depth) {
    if (i >= end) {
      return FAIL;
    }
    byte c = b[i];
    if (c == '"') {
      return string(i + 1, MAX_TEXT);
    }
    if (c == '{' || c == '[') {
      return depth >= MAX_DEPTH ? FAIL : container(i, depth);
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
      return number(i);
    }
    if (isNull(i)) {
      return i + 4;
    }
    if (i + 4 <= end && b[i] == 't' && b[i + 1] == 'r' && b[i + 2] == 'u' && b[i + 3] == 'e') {
      return i + 4;
    }
    if (i + 5 <= end
        && b[i] == 'f'
        && b[i + 1] == 'a'
        && b[i + 2] == 'l'
        && b[i + 3] == 's'
        && b[i + 4] == 'e') {
      return i + 5;
    }
    return FAIL;
  }

  /** An object or array opening at {@code i}: the position after its close, or {@link #FAIL}. */
  private int container(int i, int depth) {
    boolean object = b[i] == '{';
    byte close = object ? (byte) '}' : (byte) ']';
    i = ws(i + 1);
    if (i < end && b[i] == close) {
      return i + 1;
    }
    while (i < end) {
      if (object) {
        if (b[i] != '"') {
          return FAIL;
        }
        i = string(i + 1, MAX_NAME);
        if (i == FAIL) {
          return FAIL;
        }
        i = ws(i);
        if (i >= end || b[i] != ':') {
          return FAIL;
        }
        i = ws(i + 1);
      }
      i = value(i, depth + 1);
      if (i == FAIL) {
        return FAIL;
      }
      i = ws(i);
      if (i >= end) {
        return FAIL;
      }
      if (b[i] == close) {
        return i + 1;
      }
      if (b[i] != ',') {
        return FAIL;
      }
      i = ws(i + 1);
    }
    return FAIL;
  }

  /**
   * A number of JSON's grammar at {@code i}: the position after it, or {@link #FAIL}. What follows
   * it is checked by the caller (a separator, or the parser's error).
   */
  private int number(int i) {
    int start = i;
    if (b[i] == '-') {
      i++;
    }
    if (i >= end) {
      return FAIL;
    }
    if (b[i] == '0') {
      i++;
      if (i < end && isDigit(b[i])) {
        return FAIL; // a leading zero
      }
    } else {
      int d = digits(i);
      if (d == i) {
        return FAIL;
      }
      i = d;
    }
    if (i < end && b[i] == '.') {
      int d = digits(i + 1);
      if (d == i + 1) {
        return FAIL;
      }
      i = d;
    }
    if (i < end && (b[i] == 'e' || b[i] == 'E')) {
      i++;
      if (i < end && (b[i] == '+' || b[i] == '-')) {
        i++;
      }
      int d = digits(i);
      if (d == i) {
        return FAIL;
      }
      i = d;
    }
    return i - start > MAX_NUMBER ? FAIL : i;
  }

  /** A {@code seq} or {@code pid}: an integer short enough to fit a long, or {@link #FAIL}. */
  private int integer(int i) {
    int after = number(i);
    if (after == FAIL || after - i > MAX_INTEGER) {
      return FAIL;
    }
    for (int k = i; k < after; k++) {
      if (b[k] == '.' || b[k] == 'e' || b[k] == 'E') {
        return FAIL;
      }
    }
    return after;
  }

  private int digits(int i) {
    while (i < end && isDigit(b[i])) {
      i++;
    }
    return i;
  }

  private static boolean isDigit(byte c) {
    return c >= '0' && c <= '9';
  }
}
