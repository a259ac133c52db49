package dev.vigil.observe;

import java.nio.BufferUnderflowException;
import java.util.Arrays;
import net.openhft.chronicle.bytes.BytesIn;

/**
 * One encoded event's bytes, copied once out of the queue onto the heap, and a reading position in
 * them: the envelope is then read with plain array reads rather than a call into Chronicle's bytes
 * for every byte and number. It reads the numbers as Chronicle's {@code readStopBit} reads them and
 * refuses what that refuses (an event cut short, a number of too many bytes), with a {@link
 * RuntimeException}; {@link WireText} reads its strings. Not thread-safe: one event, one reader,
 * and a cursor of an event copied out of the queue is read before its thread makes the next one.
 */
final class WireCursor {
  /** Events up to this size are copied into the reading thread's own array, larger ones apart. */
  private static final int SCRATCH_BYTES = 16 * 1024;

  /**
   * A reading thread's array for the event it reads (a cursor of it is valid until the thread's
   * next cursor) and its table of strings read ({@link WireText}).
   */
  private static final class Scratch {
    final byte[] bytes = new byte[SCRATCH_BYTES];
    final String[] kept = WireText.newTable();
  }

  private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);

  private final byte[] b;
  private final int end;
  private int at;

  /** The reading thread's table of short strings read last ({@link WireText}). */
  final String[] kept;

  private WireCursor(byte[] b, int end, String[] kept) {
    this.b = b;
    this.end = end;
    this.kept = kept;
  }

  /**
   * The bytes of {@code in} from its read position to its read limit, copied; {@code in}'s read
   * position is left where it was.
   */
  static WireCursor of(BytesIn<?> in) {
    return of(in, Integer.MAX_VALUE);
  }

  /**
   * The first {@code most} bytes of {@code in} from its read position (fewer when its read limit
   * comes sooner), copied; {@code in}'s read position is left where it was.
   */
  static WireCursor of(BytesIn<?> in, int most) {
    int length = (int) Math.min(in.readRemaining(), most);
    Scratch scratch = SCRATCH.get();
    byte[] copy = length <= SCRATCH_BYTES ? scratch.bytes : new byte[length];
    in.read(in.readPosition(), copy, 0, length);
    return new WireCursor(copy, length, scratch.kept);
  }

  /** How many bytes are left. */
  int remaining() {
    return end - at;
  }

  byte readByte() {
    if (at >= end) {
      throw new BufferUnderflowException();
    }
    return b[at++];
  }

  /**
   * A number as Chronicle writes it with {@code writeStopBit}: seven bits a byte, least significant
   * first, the high bit set on every byte but the last; a last byte of 0 after others marks a
   * negative number, written as its complement.
   */
  long readStopBit() {
    long first = readByte();
    if (first >= 0) {
      return first;
    }
    long l = first & 0x7F;
    int count = 7;
    long next;
    while ((next = readByte()) < 0) {
      l |= (next & 0x7F) << count;
      count += 7;
    }
    if (next != 0) {
      if (count > 56) {
        throw new IllegalStateException("a stop-bit number of more than 9 bytes");
      }
      return l | next << count;
    }
    if (count > 63) {
      throw new IllegalStateException("a negative stop-bit number of more than 10 bytes");
    }
    return ~l;
  }

  /** The next {@code length} bytes, copied. */
  byte[] bytes(int length) {
    if (length > end - at) {
      throw new BufferUnderflowException();
    }
    byte[] out = Arrays.copyOfRange(b, at, at + length);
    at += length;
    return out;
  }

  /** The array the bytes are read from; {@link #position()} is where the next one is. */
  byte[] array() {
    return b;
  }

  /** Where the next byte is read: the bytes read so far. */
  int position() {
    return at;
  }

  /** Moves past {@code length} bytes, which the caller has checked are there. */
  void skip(int length) {
    at += length;
  }
}
