package dev.vigil.observe;

import net.openhft.chronicle.bytes.BytesOut;

/**
 * An event of a batch written as its differences from the event before it in the batch
 * (docs/DESIGN.md#the-queue): much of what one tool call's event holds is the same in the next one
 * (the first bytes of {@code ts}, the agent, the thread, the class and method), and every byte not
 * written is a byte of the queue's file the kernel need not find a new page for. The writer names
 * the runs it knows to be the same, from the values it wrote them from, so that nothing is compared
 * but the common start.
 *
 * <p>The differences are a sequence of steps, each a run of new bytes (its length as a stop-bit
 * number, then the bytes) and then a copy from the event before (its length as a stop-bit number,
 * and, when not 0, where it begins there). The copies go forward through the event before and never
 * overlap, so that an event of differences never makes more bytes than the event before and itself
 * hold; the last step may end after its new bytes. The event is exactly the bytes it was before
 * being written this way: a reader reads it with {@link EventWire} like any other.
 */
public final class EventDelta {
  /** A copy shorter than this costs more than the bytes it saves. */
  static final int MIN_COPY = 4;

  /** Runs a writer names at most, after the common start. */
  static final int MAX_RUNS = 6;

  /**
   * Copies: where in the event they begin and end, where in the one before; index 0 the common
   * start, then the runs named by {@link #same}.
   */
  private final int[] from = new int[MAX_RUNS + 1];

  private final int[] to = new int[MAX_RUNS + 1];
  private final int[] at = new int[MAX_RUNS + 1];
  private int runs;

  /** The differences, written here first: the stream gets them in one write, or not at all. */
  private byte[] written = new byte[256];

  /** The longest stop-bit number of an int. */
  private static final int MAX_STOP_BIT = 5;

  /** Empties the named runs for the next event. */
  public EventDelta begin() {
    runs = 0;
    return this;
  }

  /**
   * Names a run of the event, {@code [from, to)}, that the writer knows to be the same bytes as
   * those of the event before from {@code at} on (it wrote them from the same values); in the order
   * of the event, at most {@link #MAX_RUNS} of them. Runs that overlap a copy before them are cut.
   */
  public EventDelta same(int from, int to, int at) {
    if (runs < MAX_RUNS && to - from >= MIN_COPY) {
      runs++;
      this.from[runs] = from;
      this.to[runs] = to;
      this.at[runs] = at;
    }
    return this;
  }

  /**
   * Writes {@code event[offset, offset + length)} into {@code out} as its differences from {@code
   * before[0, beforeLength)}: their common start, and the runs named by {@link #same}. Writes
   * nothing and returns false when that would not be shorter than the event.
   */
  public boolean write(
      byte[] event, int offset, int length, byte[] before, int beforeLength, BytesOut<?> out) {
    int[] f = from;
    int[] t = to;
    int[] a = at;
    int n = runs + 1;
    runs = 0;
    int common = Math.min(length, beforeLength);
    int start = 0;
    while (start < common && event[offset + start] == before[start]) {
      start++;
    }
    f[0] = 0;
    t[0] = start;
    a[0] = 0;
    if (written.length < length + 16) {
      written = new byte[Math.max(length + 16, written.length * 2)];
    }
    byte[] w = written;
    int size = 0;
    int made = 0;
    int taken = 0;
    for (int i = 0; i < n; i++) {
      int cf = Math.max(f[i], made); // forward in both events, without overlaps
      int ca = a[i] + (cf - f[i]);
      if (ca < taken) {
        cf += taken - ca;
        ca = taken;
      }
      int ct = Math.min(t[i], length);
      if (ct - cf < MIN_COPY || ca > beforeLength - (ct - cf)) {
        continue;
      }
      int fresh = cf - made;
      if (size + fresh + 3 * MAX_STOP_BIT >= length) {
        return false; // not shorter
      }
      size = putStopBit(w, size, fresh);
      System.arraycopy(event, offset + made, w, size, fresh);
      size += fresh;
      size = putStopBit(w, size, ct - cf);
      size = putStopBit(w, size, ca);
      made = ct;
      taken = ca + (ct - cf);
    }
    if (made == 0) {
      return false;
    }
    if (made < length) {
      int fresh = length - made;
      if (size + fresh + MAX_STOP_BIT >= length) {
        return false;
      }
      size = putStopBit(w, size, fresh);
      System.arraycopy(event, offset + made, w, size, fresh);
      size += fresh;
    }
    out.write(w, 0, size);
    return true;
  }

  /** Writes {@code v} (not negative) as a stop-bit number at {@code at}; returns its end. */
  private static int putStopBit(byte[] b, int at, int v) {
    while ((v & ~0x7F) != 0) {
      b[at++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    b[at++] = (byte) v;
    return at;
  }

  /**
   * The event whose differences from {@code before[0, beforeLength)} are {@code delta[0,
   * deltaLength)}, written into {@code out}, which holds at least {@code beforeLength +
   * deltaLength} bytes.
   *
   * @return its length
   * @throws EventFormatException when the differences are not well formed: a length beyond what is
   *     left, a copy from outside the event before or backwards in it
   */
  public static int read(byte[] delta, int deltaLength, byte[] before, int beforeLength, byte[] out)
      throws EventFormatException {
    int in = 0;
    int made = 0;
    int taken = 0;
    while (in < deltaLength) {
      long fresh = stopBit(delta, in, deltaLength);
      in += stopBitLength(fresh);
      if (fresh > deltaLength - in) {
        throw broken("new bytes beyond its end");
      }
      System.arraycopy(delta, in, out, made, (int) fresh);
      in += (int) fresh;
      made += (int) fresh;
      if (in == deltaLength) {
        break;
      }
      long copy = stopBit(delta, in, deltaLength);
      in += stopBitLength(copy);
      if (copy == 0) {
        continue;
      }
      long where = stopBit(delta, in, deltaLength);
      in += stopBitLength(where);
      if (where < taken || copy > beforeLength - where) {
        throw broken("a copy from outside the event before it");
      }
      System.arraycopy(before, (int) where, out, made, (int) copy);
      made += (int) copy;
      taken = (int) (where + copy);
    }
    return made;
  }

  /**
   * A non-negative stop-bit number of at most 31 bits at {@code in}.
   *
   * @throws EventFormatException when it runs past {@code end} or is larger
   */
  private static long stopBit(byte[] b, int in, int end) throws EventFormatException {
    long v = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      if (in >= end) {
        throw broken("a number cut short");
      }
      int x = b[in++];
      v |= (long) (x & 0x7F) << shift;
      if (x >= 0) {
        if (v > Integer.MAX_VALUE || (x == 0 && shift > 0)) {
          throw broken("a number out of range");
        }
        return v;
      }
    }
    throw broken("a number out of range");
  }

  static int stopBitLength(long v) {
    int n = 1;
    for (long rest = v >>> 7; rest != 0; rest >>>= 7) {
      n++;
    }
    return n;
  }

  private static EventFormatException broken(String what) {
    return new EventFormatException(EventDefect.NOT_AN_EVENT, what);
  }
}
