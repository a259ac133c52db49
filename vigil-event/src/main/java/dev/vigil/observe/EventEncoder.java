package dev.vigil.observe;

import java.util.Arrays;
import java.util.Objects;
import net.openhft.chronicle.bytes.BytesOut;

/**
 * Encodes events in the {@link EventWire} layout without building an {@link Event} or a payload
 * tree: the payload is written field by field into {@link #payload()}, the other fields are given
 * to {@link #head}, and {@link #writeTo} puts the whole excerpt into the queue with one copy,
 * {@code seq} last (so that it can be taken while the queue's write lock is held). One encoder per
 * thread; it is reused from one event to the next and allocates nothing once its buffers have grown
 * to size.
 *
 * <p>The bytes are those of {@link EventWire#write}, except that the payload's Smile never refers
 * back to an earlier name (see {@link SmileOut}), and that a tool call's payload may be written in
 * its short form ({@link #callPayload}); {@link EventWire#read} reads them all alike.
 */
public final class EventEncoder {
  /**
   * The longest stop-bit number (a long's 64 bits, 7 a byte, and the byte that marks a negative
   * one).
   */
  private static final int MAX_STOP_BIT = 11;

  /**
   * Room before the payload for the fields in front of it, so that the excerpt is one run of bytes.
   */
  private static final int HEAD_ROOM = 256;

  private final SmileOut payload = new SmileOut(HEAD_ROOM);

  /**
   * The fields before {@code seq}, then those after it (with the payload's length): {@code seqAt}
   * splits them.
   */
  private byte[] head = new byte[HEAD_ROOM];

  private int seqAt;
  private int headLength;

  /** Where in the head the names ({@link #names}) begin and end, and where pid and thread end. */
  private int namesStart;

  private int namesEnd;
  private int threadEnd;

  /**
   * The values the names and the pid and thread were encoded from, and the constant written by
   * {@link #constant} (null: none) with where it begins in the payload.
   */
  private String kind;

  private String status;
  private String agent;
  private long pid;
  private String thread;
  private byte[] constant;
  private int constantAt;

  /**
   * The event last written by {@link #writeBatched}, whole, with its values as above and where its
   * names, its pid and thread and its constant begin in it: what the next event of a batch is
   * written against.
   */
  private byte[] before = new byte[0];

  private int beforeLength = -1;
  private String beforeKind;
  private String beforeStatus;
  private String beforeAgent;
  private long beforePid;
  private String beforeThread;
  private byte[] beforeConstant;
  private int beforeNamesAt;
  private int beforeThreadAt;
  private int beforeConstantAt;

  /**
   * Made by the first event written as differences: a process that never batches never loads it.
   */
  private EventDelta delta;

  private long epochMillis;

  /** Whether the payload is a tool call's short form ({@link #callPayload}). */
  private boolean call;

  /**
   * The last kind, status and agent (compared by identity: the same strings come again and again),
   * encoded.
   */
  private String lastKind;

  private String lastStatus;
  private String lastAgent;
  private int lastStatusCode;
  private byte[] lastNames = new byte[0];

  /** Recent threads (by their name's string) and pids, encoded; a slot by the name's hash. */
  private static final int THREAD_SLOTS = 64;

  private final String[] threadKeys = new String[THREAD_SLOTS];
  private final long[] threadPids = new long[THREAD_SLOTS];
  private final byte[][] threadBytes = new byte[THREAD_SLOTS][];

  /** Empties the payload for the next event. */
  public EventEncoder begin() {
    payload.reset();
    headLength = 0;
    seqAt = 0;
    call = false;
    constant = null;
    return this;
  }

  /**
   * Writes {@code bytes} into the payload: bytes that are the same whenever the same array is given
   * (a call site's class and method, say), so that the next event of a batch that writes the same
   * array here copies them from the event before ({@link #writeBatched}). One a payload.
   */
  public void constant(byte[] bytes) {
    constantAt = payload.length();
    constant = bytes;
    payload.raw(bytes);
  }

  /** Where the payload (a Smile object) is written, after {@link #begin()}. */
  public SmileOut payload() {
    return payload;
  }

  /**
   * Where a tool call's payload is written in its short form, after {@link #begin()}: its form
   * byte, made of {@link CallPayload}'s flags, is written here; its values follow in the order that
   * {@link CallPayload} gives.
   */
  public SmileOut callPayload(int form) {
    call = true;
    payload.rawByte(form);
    return payload;
  }

  /**
   * Encodes the fields other than the payload and {@code seq}, once the payload is complete.
   *
   * @param epochSecond {@code ts}: seconds since the epoch
   * @param nano {@code ts}: nanoseconds within the second
   * @param pid the process id, or a negative number for none
   */
  public void head(
      long epochSecond,
      int nano,
      String kind,
      String status,
      String agent,
      long pid,
      String thread,
      String turn,
      String callId,
      String session) {
    epochMillis = epochSecond * 1000 + nano / 1_000_000;
    this.kind = kind;
    this.status = status;
    this.agent = agent;
    this.pid = pid;
    this.thread = thread;
    int n = room(0, 3 + 2 * MAX_STOP_BIT);
    head[n++] = EventWire.MAGIC;
    head[n++] = EventWire.VERSION;
    int flagsAt = n++;
    n = stopBit(n, epochSecond);
    n = stopBit(n, nano);
    namesStart = n;
    n = names(n, kind, status, agent);
    namesEnd = n;
    head[flagsAt] =
        (byte)
            (EventWire.HAS_SEQ
                | (pid >= 0 ? EventWire.HAS_PID : 0)
                | (turn != null ? EventWire.HAS_TURN : 0)
                | (callId != null ? EventWire.HAS_CALL_ID : 0)
                | (session != null ? EventWire.HAS_SESSION : 0)
                | lastStatusCode << EventWire.STATUS_SHIFT
                | (call ? EventWire.CALL_PAYLOAD : 0));
    seqAt = n;
    n = pidAndThread(n, pid, thread);
    threadEnd = n;
    if (turn != null) {
      n = utf8(n, turn);
    }
    if (callId != null) {
      n = utf8(n, callId);
    }
    if (session != null) {
      n = utf8(n, session);
    }
    headLength = stopBit(room(n, MAX_STOP_BIT), payload.length());
  }

  /** The {@code ts} given to {@link #head}, in milliseconds since the epoch. */
  public long epochMillis() {
    return epochMillis;
  }

  /** Writes the excerpt encoded by {@link #head} and the payload, with {@code seq}. */
  public void writeTo(BytesOut<?> out, long seq) {
    byte[] b = payload.array();
    int start = payload.reserve() - headLength - seqLength(seq);
    if (start < 0) {
      out.write(head, 0, seqAt);
      out.writeStopBit(seq);
      out.write(head, seqAt, headLength - seqAt);
      out.write(b, payload.reserve(), payload.length());
      return;
    }
    // the excerpt as one run of bytes, in the room left before the payload
    placeHead(b, start, seq);
    out.write(b, start, payload.end() - start);
  }

  /**
   * Writes the event encoded by {@link #head} and the payload, with {@code seq}, as the next event
   * of a batch: whole when it is the batch's {@code first}, else as its differences from the event
   * this method wrote before ({@link EventDelta}) when they are shorter. {@code seq} is not
   * negative.
   *
   * @return whether it was written as its differences
   */
  public boolean writeBatched(BytesOut<?> out, long seq, boolean first) {
    int seqLength = seqLength(seq);
    int start = payload.reserve() - headLength - seqLength;
    byte[] b;
    int length;
    if (start >= 0) {
      b = payload.array();
      placeHead(b, start, seq);
      length = payload.end() - start;
    } else {
      b = toBytes(seq);
      start = 0;
      length = b.length;
    }
    int threadAt = seqAt + seqLength;
    int constantStart = headLength + seqLength + constantAt;
    boolean differs = false;
    if (!first && beforeLength >= 0) {
      if (delta == null) {
        delta = new EventDelta();
      }
      EventDelta d = delta.begin();
      if (Objects.equals(kind, beforeKind)
          && Objects.equals(status, beforeStatus)
          && Objects.equals(agent, beforeAgent)) {
        d.same(namesStart, namesEnd, beforeNamesAt);
      }
      if (pid == beforePid && Objects.equals(thread, beforeThread)) {
        d.same(threadAt, threadEnd + seqLength, beforeThreadAt);
      }
      if (constant != null && constant == beforeConstant) {
        d.same(constantStart, constantStart + constant.length, beforeConstantAt);
      }
      differs = d.write(b, start, length, before, beforeLength, out);
    }
    if (!differs) {
      out.write(b, start, length);
    }
    if (before.length < length) {
      before = new byte[Math.max(length, before.length * 2)];
    }
    System.arraycopy(b, start, before, 0, length);
    beforeLength = length;
    beforeKind = kind;
    beforeStatus = status;
    beforeAgent = agent;
    beforePid = pid;
    beforeThread = thread;
    beforeConstant = constant;
    beforeNamesAt = namesStart;
    beforeThreadAt = threadAt;
    beforeConstantAt = constantStart;
    return differs;
  }

  /**
   * The excerpt encoded by {@link #head} and the payload, with {@code seq}, as {@link #writeTo}
   * writes it: for a writer without a Chronicle buffer at hand. {@code seq} is not negative.
   */
  public byte[] toBytes(long seq) {
    if (seq < 0) {
      throw new IllegalArgumentException("seq " + seq + " is negative");
    }
    int length = headLength + seqLength(seq) + payload.length();
    byte[] out = new byte[length];
    int at = placeHead(out, 0, seq);
    System.arraycopy(payload.array(), payload.reserve(), out, at, payload.length());
    return out;
  }

  private static int seqLength(long seq) {
    return seq < 0 ? HEAD_ROOM : Math.max(1, (70 - Long.numberOfLeadingZeros(seq)) / 7);
  }

  /** Writes the head with {@code seq} (a stop-bit number) into {@code b} at {@code at}: its end. */
  private int placeHead(byte[] b, int at, long seq) {
    System.arraycopy(head, 0, b, at, seqAt);
    at += seqAt;
    long rest = seq;
    for (; (rest & ~0x7FL) != 0; rest >>>= 7) {
      b[at++] = (byte) ((rest & 0x7F) | 0x80);
    }
    b[at++] = (byte) rest;
    System.arraycopy(head, seqAt, b, at, headLength - seqAt);
    return at + headLength - seqAt;
  }

  /**
   * {@code kind}, {@code status} (unless the flags hold it) and {@code agent}, copied when they are
   * the strings of the last event.
   */
  // by identity on purpose: a cache hit needs the very strings of the last event; equal copies are
  // just encoded again
  @SuppressWarnings("ReferenceEquality")
  private int names(int at, String kind, String status, String agent) {
    if (kind == lastKind && status == lastStatus && agent == lastAgent) {
      at = room(at, lastNames.length + MAX_STOP_BIT + 1);
      System.arraycopy(lastNames, 0, head, at, lastNames.length);
      return at + lastNames.length;
    }
    int start = at;
    int code = StatusCodes.of(status);
    at = utf8(at, kind);
    if (code == 0) {
      at = utf8(at, status);
    }
    at = utf8(at, agent);
    lastStatusCode = code;
    lastKind = kind;
    lastStatus = status;
    lastAgent = agent;
    lastNames = Arrays.copyOfRange(head, start, at);
    return at;
  }

  /**
   * {@code pid} (when not negative) and {@code thread}, copied when they were encoded for a recent
   * event: a few threads' names are kept, by identity (a thread keeps its name's string), so that
   * threads whose events come interleaved each find theirs.
   */
  // by identity on purpose: a thread keeps its name's string, so identity finds it without
  // comparing characters
  @SuppressWarnings("ReferenceEquality")
  private int pidAndThread(int at, long pid, String thread) {
    int slot = thread == null ? 0 : thread.hashCode() & (THREAD_SLOTS - 1);
    byte[] known = threadBytes[slot];
    if (thread != null && threadKeys[slot] == thread && threadPids[slot] == pid) {
      at = room(at, known.length + MAX_STOP_BIT + 1);
      System.arraycopy(known, 0, head, at, known.length);
      return at + known.length;
    }
    int start = room(at, MAX_STOP_BIT);
    if (pid >= 0) {
      at = stopBit(at, pid);
    }
    at = utf8(at, thread);
    if (thread != null) {
      threadKeys[slot] = thread;
      threadPids[slot] = pid;
      threadBytes[slot] = Arrays.copyOfRange(head, start, at);
    }
    return at;
  }

  /**
   * Chronicle's stop-bit encoding: 7 bits a byte, least significant first; a negative number as its
   * complement. Room for {@link #MAX_STOP_BIT} bytes was made by whoever wrote before.
   */
  private int stopBit(int at, long v) {
    byte[] b = head;
    if (v < 0) { // the complement, and a last byte that marks it
      long rest = ~v;
      for (; (rest & ~0x7FL) != 0; rest >>>= 7) {
        b[at++] = (byte) (rest | 0x80);
      }
      b[at++] = (byte) (rest | 0x80);
      b[at++] = 0;
      return at;
    }
    for (; (v & ~0x7FL) != 0; v >>>= 7) {
      b[at++] = (byte) (v | 0x80);
    }
    b[at++] = (byte) v;
    return at;
  }

  /**
   * Chronicle's {@code writeUtf8}: the byte length as a stop bit (-1 for null), then every char as
   * one to three bytes (a surrogate, paired or not, as three), so that Chronicle's {@code readUtf8}
   * gives back the very same string.
   */
  private int utf8(int at, String s) {
    at = room(at, MAX_STOP_BIT + 2);
    if (s == null) { // -1
      head[at] = (byte) 0x80;
      head[at + 1] = 0;
      return at + 2;
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
    at = room(at, bytes + MAX_STOP_BIT + 1);
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
