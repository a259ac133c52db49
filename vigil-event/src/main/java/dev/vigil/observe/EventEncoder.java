package dev.vigil.observe;

import java.util.Arrays;
import net.openhft.chronicle.bytes.BytesOut;

/**
 * Encodes events in the {@link EventWire} layout without building an {@link Event} or a payload tree: the payload is
 * written field by field into {@link #payload()}, the other fields are given to {@link #head}, and
 * {@link #writeTo} puts the excerpt into the queue with few bulk copies, {@code seq} last (so that it can be taken
 * while the queue's write lock is held). One encoder per thread; it is reused from one event to the next and
 * allocates nothing once its buffers have grown to size.
 *
 * <p>The bytes are those of {@link EventWire#write}, except that the payload's Smile never refers back to an
 * earlier name (see {@link SmileOut}); {@link EventWire#read} reads both alike.
 */
public final class EventEncoder {
  private final SmileOut payload = new SmileOut();
  /** The fields before {@code seq}, then those after it (with the payload's length): {@code seqAt} splits them. */
  private byte[] head = new byte[256];
  private int seqAt;
  private int headLength;

  /** Empties the payload for the next event. */
  public EventEncoder begin() {
    payload.reset();
    headLength = 0;
    seqAt = 0;
    return this;
  }

  /** Where the payload (a Smile object) is written, after {@link #begin()}. */
  public SmileOut payload() {
    return payload;
  }

  /**
   * Encodes the fields other than the payload and {@code seq}, once the payload is complete.
   *
   * @param epochSecond {@code ts}: seconds since the epoch
   * @param nano        {@code ts}: nanoseconds within the second
   * @param pid         the process id, or a negative number for none
   */
  public void head(long epochSecond, int nano, String kind, String status, String agent, long pid, String thread,
      String turn, String callId, String session) {
    int n = 0;
    n = room(n, 2 + 20);
    head[n++] = EventWire.MAGIC;
    head[n++] = EventWire.VERSION;
    n = stopBit(n, epochSecond);
    n = stopBit(n, nano);
    n = utf8(n, kind);
    n = utf8(n, status);
    n = utf8(n, agent);
    n = room(n, 1);
    head[n++] = (byte) (EventWire.HAS_SEQ | (pid >= 0 ? EventWire.HAS_PID : 0));
    seqAt = n;
    if (pid >= 0) {
      n = stopBit(n, pid);
    }
    n = utf8(n, thread);
    n = utf8(n, turn);
    n = utf8(n, callId);
    n = utf8(n, session);
    headLength = stopBit(n, payload.length());
  }

  /** Writes the excerpt encoded by {@link #head} and the payload, with {@code seq}. */
  public void writeTo(BytesOut<?> out, long seq) {
    out.write(head, 0, seqAt);
    out.writeStopBit(seq);
    out.write(head, seqAt, headLength - seqAt);
    out.write(payload.array(), 0, payload.length());
  }

  /** Chronicle's stop-bit encoding: 7 bits a byte, least significant first; a negative number as its complement. */
  private int stopBit(int at, long v) {
    at = room(at, 11);
    boolean negative = v < 0;
    long rest = negative ? ~v : v;
    while ((rest & ~0x7FL) != 0) {
      head[at++] = (byte) ((rest & 0x7F) | 0x80);
      rest >>>= 7;
    }
    if (negative) {
      head[at++] = (byte) (rest | 0x80);
      head[at++] = 0;
    } else {
      head[at++] = (byte) rest;
    }
    return at;
  }

  /**
   * Chronicle's {@code writeUtf8}: the byte length as a stop bit (-1 for null), then every char as one to three bytes
   * (a surrogate, paired or not, as three), so that Chronicle's {@code readUtf8} gives back the very same string.
   */
  private int utf8(int at, String s) {
    if (s == null) {
      return stopBit(at, -1);
    }
    int n = s.length();
    int bytes = n;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c >= 0x80) {
        bytes += c < 0x800 ? 1 : 2;
      }
    }
    at = stopBit(at, bytes);
    at = room(at, bytes);
    byte[] b = head;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        b[at++] = (byte) c;
      } else if (c < 0x800) {
        b[at++] = (byte) (0xC0 | (c >> 6));
        b[at++] = (byte) (0x80 | (c & 0x3F));
      } else {
        b[at++] = (byte) (0xE0 | (c >> 12));
        b[at++] = (byte) (0x80 | ((c >> 6) & 0x3F));
        b[at++] = (byte) (0x80 | (c & 0x3F));
      }
    }
    return at;
  }

  private int room(int at, int more) {
    if (at + more > head.length) {
      head = Arrays.copyOf(head, Math.max(head.length * 2, at + more));
    }
    return at;
  }
}
