package dev.vigil.observe;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Arrays;

/**
 * Writes one JSON value as Smile (Jackson's binary JSON, the payload of {@link EventWire}) straight
 * into a byte buffer that is reused from one value to the next: no tree, no generator, nothing
 * allocated per value once the buffer has grown to size. What it writes is read by Jackson's Smile
 * parser as the tree it describes.
 *
 * <p>Departures from Jackson's generator: names and strings are never written as back-references to
 * earlier ones (each value stands alone; a reader keeps its table of seen names, as the format
 * asks, but nothing refers to it), and a lone surrogate, which Jackson refuses to write, becomes
 * U+FFFD. Big integers, big decimals and binary, which captured values seldom hold, are written by
 * Jackson's own generator into the buffer.
 */
public final class SmileOut {
  private static final byte START_ARRAY = (byte) 0xF8;
  private static final byte END_ARRAY = (byte) 0xF9;
  private static final byte START_OBJECT = (byte) 0xFA;
  private static final byte END_OBJECT = (byte) 0xFB;
  private static final byte END_STRING = (byte) 0xFC;
  private static final byte EMPTY = 0x20;
  private static final byte NULL = 0x21;
  private static final byte FALSE = 0x22;
  private static final byte TRUE = 0x23;
  private static final byte INT = 0x24;
  private static final byte LONG = 0x25;
  private static final byte FLOAT = 0x28;
  private static final byte DOUBLE = 0x29;

  /** Longest string or name written with its length in the token byte. */
  private static final int SHORT_BYTES = 64;

  /** Longest non-ASCII name written with its length in the token byte. */
  private static final int SHORT_UNICODE_NAME_BYTES = 56;

  /** Values remembered by {@link #remember} (a power of two), and the longest kept. */
  private static final int MEMO_SLOTS = 4;

  private static final int MEMO_BYTES = 96;

  /** Made on the first {@link #remember}. */
  private Object[] memoKeys;

  private byte[][] memoBytes;
  private int[] memoLengths;
  private int memoNext;

  /**
   * Bytes kept free before the value, for what a caller puts in front of it ({@link EventEncoder}).
   */
  private final int reserve;

  private byte[] buf;
  private int length;

  /** Where {@link #asciiString} takes a string's characters. */
  private char[] scratch = new char[64];

  /** An empty buffer. */
  public SmileOut() {
    this(0);
  }

  SmileOut(int reserve) {
    this.reserve = reserve;
    this.buf = new byte[reserve + 256];
    this.length = reserve;
  }

  /** Empties the buffer for the next value. */
  public void reset() {
    length = reserve;
  }

  /** Bytes written since the last {@link #reset()}. */
  public int length() {
    return length - reserve;
  }

  /** A copy of what was written. */
  public byte[] toByteArray() {
    return Arrays.copyOfRange(buf, reserve, length);
  }

  /**
   * The bytes of the property name {@code name}, to be written again and again with {@link #raw}: a
   * name known in advance costs a copy rather than an encoding.
   */
  public static byte[] nameBytes(String name) {
    SmileOut out = new SmileOut();
    out.name(name);
    return out.toByteArray();
  }

  /** The bytes of the string value {@code s}, for {@link #raw}. */
  public static byte[] stringBytes(String s) {
    SmileOut out = new SmileOut();
    out.string(s);
    return out.toByteArray();
  }

  /**
   * Bytes written before by another SmileOut ({@link #nameBytes}, {@link #stringBytes}, {@link
   * #toByteArray}).
   */
  public void raw(byte[] bytes) {
    ensure(bytes.length);
    System.arraycopy(bytes, 0, buf, length, bytes.length);
    length += bytes.length;
  }

  /** Bytes {@code from} to {@code from + n - 1} of {@code bytes}, as they are. */
  public void raw(byte[] bytes, int from, int n) {
    ensure(n);
    System.arraycopy(bytes, from, buf, length, n);
    length += n;
  }

  /** One byte that is not Smile, such as {@link CallPayload}'s form byte. */
  public void rawByte(int b) {
    put((byte) b);
  }

  /**
   * Writes again what was written for {@code key} (compared by identity) by a recent {@link
   * #remember}; false, and nothing written, when it is not remembered. For values that come again
   * and again (the same string argument of a tool called in a loop): a few comparisons instead of
   * their encoding.
   */
  public boolean repeat(Object key) {
    Object[] keys = memoKeys;
    if (keys == null) {
      return false;
    }
    for (int i = 0; i < MEMO_SLOTS; i++) {
      if (keys[i] == key) {
        int n = memoLengths[i];
        ensure(n);
        System.arraycopy(memoBytes[i], 0, buf, length, n);
        length += n;
        return true;
      }
    }
    return false;
  }

  /** Where the next byte goes, for {@link #remember} and {@link #rewind}. */
  public int mark() {
    return length;
  }

  /** Forgets what was written since {@code mark}. */
  public void rewind(int mark) {
    if (mark < reserve || mark > length) {
      throw new IllegalArgumentException("mark " + mark + " is not within the value written");
    }
    length = mark;
  }

  /**
   * Remembers the bytes written since {@code mark} as those of {@code key}, for {@link #repeat};
   * only short ones are kept, in a few slots used in turn (nothing is allocated). {@code key} must
   * be immutable, and the bytes written for it always the same.
   */
  public void remember(Object key, int mark) {
    int n = length - mark;
    if (key == null || n > MEMO_BYTES || n < 0) {
      return;
    }
    if (memoKeys == null) {
      memoKeys = new Object[MEMO_SLOTS];
      memoBytes = new byte[MEMO_SLOTS][MEMO_BYTES];
      memoLengths = new int[MEMO_SLOTS];
    }
    int slot = memoNext;
    memoNext = (slot + 1) & (MEMO_SLOTS - 1);
    System.arraycopy(buf, mark, memoBytes[slot], 0, n);
    memoLengths[slot] = n;
    memoKeys[slot] = key;
  }

  /**
   * The buffer (the value is at {@link #reserve()} up to {@link #end()}); for {@link EventEncoder}.
   */
  byte[] array() {
    return buf;
  }

  int reserve() {
    return reserve;
  }

  int end() {
    return length;
  }

  public void startObject() {
    put(START_OBJECT);
  }

  public void endObject() {
    put(END_OBJECT);
  }

  public void startArray() {
    put(START_ARRAY);
  }

  public void endArray() {
    put(END_ARRAY);
  }

  public void nullValue() {
    put(NULL);
  }

  public void bool(boolean b) {
    put(b ? TRUE : FALSE);
  }

  /** A property name, in an object. */
  public void name(String name) {
    int start = length;
    int n = name.length();
    ensure(3 * n + 2);
    length++;
    int end = utf8(name, length);
    int bytes = end - start - 1;
    if (bytes == 0) {
      buf[start] = EMPTY;
    } else if (bytes == n && bytes <= SHORT_BYTES) {
      buf[start] = (byte) (0x80 + bytes - 1);
    } else if (bytes != n && bytes <= SHORT_UNICODE_NAME_BYTES) {
      buf[start] = (byte) (0xC0 + bytes - 2);
    } else {
      buf[start] = 0x34;
      buf[end++] = END_STRING;
    }
    length = end;
  }

  /**
   * Looks at a string that {@link #asciiString} has found to be ASCII, in its bytes as written;
   * true stops the writing.
   */
  @FunctionalInterface
  public interface AsciiGuard {
    /**
     * Whether {@code s}, whose characters are the bytes {@code ascii[from]} to {@code ascii[from +
     * s.length() - 1]} (each below 128), stops the writing.
     */
    boolean stops(String s, byte[] ascii, int from);
  }

  /**
   * Writes {@code s} as a string value, as {@link #string} does, when every character is ASCII and
   * {@code guard} does not stop it; otherwise writes nothing and returns false. The characters are
   * taken in bulk ({@link String#getChars}) and narrowed to bytes in one loop with no call per
   * character; the guard then reads the bytes (the agent's redaction check, for one).
   */
  public boolean asciiString(String s, AsciiGuard guard) {
    int n = s.length();
    ensure(n + 2);
    char[] c = chars(n);
    s.getChars(0, n, c, 0);
    byte[] b = buf;
    int start = length;
    int from = start + 1;
    int high = 0;
    for (int i = 0; i < n; i++) {
      char ch = c[i];
      high |= ch;
      b[from + i] = (byte) ch;
    }
    if (high >= 0x80 || guard.stops(s, b, from)) {
      return false; // nothing is kept: length still ends before start
    }
    int at = from + n;
    if (n == 0) {
      b[start] = EMPTY;
    } else if (n > SHORT_BYTES) {
      b[start] = (byte) 0xE0;
      b[at++] = END_STRING;
    } else {
      b[start] = (byte) (n <= 32 ? 0x40 + n - 1 : 0x60 + n - 33);
    }
    length = at;
    return true;
  }

  /** A reused buffer of at least {@code n} characters. */
  private char[] chars(int n) {
    if (scratch.length < n) {
      scratch = new char[Math.max(n, 2 * scratch.length)];
    }
    return scratch;
  }

  /** A string value; null writes null. */
  public void string(String s) {
    if (s == null) {
      nullValue();
      return;
    }
    int start = length;
    int n = s.length();
    ensure(3 * n + 2);
    length++;
    int end = utf8(s, length);
    int bytes = end - start - 1;
    boolean ascii = bytes == n;
    if (bytes == 0) {
      buf[start] = EMPTY;
    } else if (bytes > SHORT_BYTES) {
      buf[start] = (byte) (ascii ? 0xE0 : 0xE4);
      buf[end++] = END_STRING;
    } else if (ascii) {
      buf[start] = (byte) (bytes <= 32 ? 0x40 + bytes - 1 : 0x60 + bytes - 33);
    } else {
      buf[start] = (byte) (bytes <= 33 ? 0x80 + bytes - 2 : 0xA0 + bytes - 34);
    }
    length = end;
  }

  public void number(int v) {
    ensure(6);
    int zigzag = (v << 1) ^ (v >> 31);
    if (zigzag >= 0 && zigzag < 0x20) {
      buf[length++] = (byte) (0xC0 + zigzag);
      return;
    }
    buf[length++] = INT;
    vint(zigzag & 0xFFFF_FFFFL);
  }

  /** A long: as an int when it fits, as Jackson's generator writes it. */
  public void number(long v) {
    if (v == (int) v) {
      number((int) v);
      return;
    }
    ensure(11);
    buf[length++] = LONG;
    vint((v << 1) ^ (v >> 63));
  }

  public void number(double v) {
    ensure(11);
    long bits = Double.doubleToRawLongBits(v);
    buf[length++] = DOUBLE;
    buf[length++] = (byte) (bits >>> 63);
    for (int shift = 56; shift >= 0; shift -= 7) {
      buf[length++] = (byte) ((bits >>> shift) & 0x7F);
    }
  }

  public void number(float v) {
    ensure(6);
    int bits = Float.floatToRawIntBits(v);
    buf[length++] = FLOAT;
    buf[length++] = (byte) ((bits >>> 28) & 0x0F);
    for (int shift = 21; shift >= 0; shift -= 7) {
      buf[length++] = (byte) ((bits >>> shift) & 0x7F);
    }
  }

  public void number(BigInteger v) {
    raw(SmileTree.byJackson(g -> g.writeNumber(v)));
  }

  public void number(BigDecimal v) {
    raw(SmileTree.byJackson(g -> g.writeNumber(v)));
  }

  /** A JSON tree, as Jackson would write it. */
  public void tree(JsonNode node) {
    SmileTree.write(node, this);
  }

  /**
   * Smile's unsigned variable-length integer: 7 bits a byte, most significant first, the last byte
   * 6 bits.
   */
  private void vint(long v) {
    int groups = 0;
    for (long rest = v >>> 6; rest != 0; rest >>>= 7) {
      groups++;
    }
    for (int g = groups; g > 0; g--) {
      buf[length++] = (byte) ((v >>> (6 + 7 * (g - 1))) & 0x7F);
    }
    buf[length++] = (byte) (0x80 | (v & 0x3F));
  }

  /** Writes {@code s} as UTF-8 at {@code at} (room for 3 bytes a char already made); the end. */
  private int utf8(String s, int at) {
    byte[] b = buf;
    int n = s.length();
    int i = 0;
    while (i < n) {
      char c = s.charAt(i);
      if (c >= 0x80) {
        break;
      }
      b[at++] = (byte) c;
      i++;
    }
    for (; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        b[at++] = (byte) c;
      } else if (c < 0x800) {
        b[at++] = (byte) (0xC0 | (c >> 6));
        b[at++] = (byte) (0x80 | (c & 0x3F));
      } else if (Character.isSurrogate(c)) {
        char low = i + 1 < n ? s.charAt(i + 1) : 0;
        if (Character.isHighSurrogate(c) && Character.isLowSurrogate(low)) {
          int cp = Character.toCodePoint(c, low);
          b[at++] = (byte) (0xF0 | (cp >> 18));
          b[at++] = (byte) (0x80 | ((cp >> 12) & 0x3F));
          b[at++] = (byte) (0x80 | ((cp >> 6) & 0x3F));
          b[at++] = (byte) (0x80 | (cp & 0x3F));
          i++;
        } else {
          b[at++] = (byte) 0xEF; // U+FFFD
          b[at++] = (byte) 0xBF;
          b[at++] = (byte) 0xBD;
        }
      } else {
        b[at++] = (byte) (0xE0 | (c >> 12));
        b[at++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        b[at++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    return at;
  }

  private void put(byte b) {
    ensure(1);
    buf[length++] = b;
  }

  private void ensure(int more) {
    if (length + more > buf.length) {
      buf = Arrays.copyOf(buf, Math.max(buf.length * 2, length + more));
    }
  }
}
