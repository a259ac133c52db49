package dev.vigil.observe;

import java.nio.BufferUnderflowException;
import java.nio.charset.StandardCharsets;

/**
 * The strings of an event's envelope, read from its {@link WireCursor} as Chronicle's {@code
 * readUtf8} reads them (its byte length as a stop-bit number, -1 for null, then each char as one to
 * three bytes), but without Chronicle's string pool: {@code readUtf8()} looks every string up in a
 * shared table and compares it with the one it finds there, which costs most for the strings that
 * are new in every event ({@code turn}, {@code call_id}, {@code session}). Same strings, same
 * nulls, and a {@link RuntimeException} for every input Chronicle's reading refuses (a length out
 * of range or beyond the excerpt, a byte sequence it does not decode). Each thread keeps the short
 * ASCII strings it read last in a small table by their bytes' hash, so that an agent's name, a kind
 * or a thread read event after event is one string, not a new one each time. Thread-safe.
 */
final class WireText {
  /** Strings this long or shorter are kept in the thread's table. */
  private static final int KEPT_LENGTH = 64;

  /** Places in a thread's table of strings read (a power of two). */
  private static final int KEPT = 256;

  private WireText() {}

  /** A new table of the short ASCII strings a thread read last, for {@link WireCursor}. */
  static String[] newTable() {
    return new String[KEPT];
  }

  /** The next string, or null; "" when the event has nothing left (as Chronicle reads it). */
  static String read(WireCursor in) {
    int length = length(in);
    if (length <= 0) {
      return length == 0 ? "" : null;
    }
    byte[] b = in.array();
    int at = in.position();
    in.skip(length);
    if (length <= KEPT_LENGTH) {
      int hash = 0;
      int signs = 0; // negative once a byte is not ASCII
      for (int i = at; i < at + length; i++) {
        hash = 31 * hash + b[i];
        signs |= b[i];
      }
      if (signs >= 0) {
        return kept(b, at, length, in.kept, (hash ^ hash >>> 8) & KEPT - 1);
      }
    } else if (ascii(b, at, length)) {
      return new String(b, at, length, StandardCharsets.ISO_8859_1);
    }
    char[] chars = new char[length];
    return new String(chars, 0, decode(b, at, length, chars));
  }

  /**
   * The string of the {@code length} ASCII bytes at {@code from}, from {@code table} when it holds
   * it at {@code at}.
   */
  private static String kept(byte[] b, int from, int length, String[] table, int at) {
    String s = table[at];
    if (s != null && s.length() == length && same(s, b, from)) {
      return s;
    }
    s = new String(b, from, length, StandardCharsets.ISO_8859_1);
    table[at] = s;
    return s;
  }

  private static boolean same(String s, byte[] b, int from) {
    for (int i = 0, n = s.length(); i < n; i++) {
      if (s.charAt(i) != b[from + i]) {
        return false;
      }
    }
    return true;
  }

  /** Passes over the next string, checked as {@link #read} checks it; false when it is null. */
  static boolean skip(WireCursor in) {
    int length = length(in);
    if (length <= 0) {
      return length == 0;
    }
    int at = in.position();
    in.skip(length);
    if (!ascii(in.array(), at, length)) {
      decode(in.array(), at, length, null);
    }
    return true;
  }

  /** The byte length that follows, 0 when nothing is left, -1 for null. */
  private static int length(WireCursor in) {
    if (in.remaining() <= 0) {
      return 0;
    }
    long length = in.readStopBit();
    if (length == -1) {
      return -1;
    }
    if (length < 0 || length > Integer.MAX_VALUE) {
      throw new ArithmeticException("string length " + length + " out of range");
    }
    if (length > in.remaining()) {
      throw new BufferUnderflowException();
    }
    return (int) length;
  }

  private static boolean ascii(byte[] b, int from, int length) {
    for (int i = from; i < from + length; i++) {
      if (b[i] < 0) {
        return false;
      }
    }
    return true;
  }

  /**
   * Decodes the {@code length} bytes at {@code from} into {@code chars} (only checks them when
   * null) as Chronicle does: one byte below 0x80, two from {@code 110xxxxx}, three from {@code
   * 1110xxxx}, each byte after the first {@code 10xxxxxx}; anything else, or a character cut off by
   * the length, is refused.
   *
   * @return the chars decoded
   */
  private static int decode(byte[] b, int from, int length, char[] chars) {
    int n = 0;
    int i = 0;
    while (i < length) {
      int c = b[from + i] & 0xFF;
      char ch;
      switch (c >> 4) {
        case 0, 1, 2, 3, 4, 5, 6, 7 -> {
          ch = (char) c;
          i++;
        }
        case 12, 13 -> {
          if (i + 2 > length || (b[from + i + 1] & 0xC0) != 0x80) {
            throw malformed(i);
          }
          ch = (char) ((c & 0x1F) << 6 | b[from + i + 1] & 0x3F);
          i += 2;
        }
        case 14 -> {
          if (i + 3 > length
              || (b[from + i + 1] & 0xC0) != 0x80
              || (b[from + i + 2] & 0xC0) != 0x80) {
            throw malformed(i);
          }
          ch = (char) ((c & 0x0F) << 12 | (b[from + i + 1] & 0x3F) << 6 | b[from + i + 2] & 0x3F);
          i += 3;
        }
        default -> throw malformed(i);
      }
      if (chars != null) {
        chars[n] = ch;
      }
      n++;
    }
    return n;
  }

  private static IllegalArgumentException malformed(int at) {
    return new IllegalArgumentException("malformed UTF-8 at byte " + at + " of a string");
  }
}
