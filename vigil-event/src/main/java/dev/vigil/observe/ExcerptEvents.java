package dev.vigil.observe;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.bytes.BytesOut;
import net.openhft.chronicle.queue.ExcerptAppender;

/**
 * The events of one excerpt, in order. An excerpt holds one event ({@link EventWire}'s layout), or
 * several written together by the agent's writer: a batch, {@link EventWire#MAGIC} and {@link
 * #BATCH} followed by each event length-prefixed (its length as a 4-byte little-endian int, then
 * the event in the layout of one event; a fixed width, so that the writer encodes an event in place
 * and writes its length after it). An event's place in the queue is its excerpt's index and its
 * place in the excerpt ({@link #k()}, 0 for the only event of an excerpt),
 * docs/DESIGN.md#the-queue.
 *
 * <p>A batch of layout {@link #DELTA_BATCH} may hold events written as their differences from the
 * event before them ({@link EventDelta}): such an event's length is negative (minus the length of
 * its differences). The reader gives back each event whole, as it was before being written so.
 *
 * <p>A reader walks an excerpt like this, and reads each event with {@link EventWire}'s methods:
 *
 * <pre>{@code
 * events.start(bytes);
 * while (events.next()) {
 *   Event e = EventWire.read(events.event()); // this event's bytes only
 * }
 * }</pre>
 *
 * One instance is reused from excerpt to excerpt; it is not thread-safe.
 */
public final class ExcerptEvents {
  /** The layout byte of a batch, where an excerpt of one event has its version. */
  public static final byte BATCH = 4;

  /**
   * The layout byte of a batch in which an event after the first may be written as its differences
   * from the one before ({@link EventDelta}).
   */
  public static final byte DELTA_BATCH = 5;

  /** Events a batch holds at most; an event's place in its excerpt is below this. */
  public static final int MAX_EVENTS = 256;

  /** The bytes of the length before each event of a batch. */
  static final int LENGTH_BYTES = 4;

  /** Where the first event of a batch (its length) begins. */
  public static final int FIRST_EVENT = 2;

  private Bytes<?> bytes;
  private long limit;
  private long next;
  private boolean batch;
  private boolean delta;
  private int k = -1;

  /** In a batch of {@link #DELTA_BATCH}: the current event and the one before it, whole. */
  private byte[] current = new byte[0];

  private byte[] before = new byte[0];

  /**
   * The current event's bytes as {@link #event()} gives them: native memory, where Chronicle reads
   * them as fast as the queue's own.
   */
  private ByteBuffer view;

  private Bytes<ByteBuffer> viewBytes;
  private int currentLength;
  private byte[] differences = new byte[0];

  /**
   * Starts on the excerpt whose bytes are {@code bytes}, from their read position to their read
   * limit.
   */
  public ExcerptEvents start(Bytes<?> bytes) {
    this.bytes = bytes;
    this.limit = bytes.readLimit();
    long at = bytes.readPosition();
    byte layout =
        limit - at >= 2 && bytes.readByte(at) == EventWire.MAGIC ? bytes.readByte(at + 1) : 0;
    batch = layout == BATCH || layout == DELTA_BATCH;
    delta = layout == DELTA_BATCH;
    next = batch ? at + FIRST_EVENT : at;
    k = -1;
    return this;
  }

  /**
   * Moves to the next event: the bytes' read position at its start and their read limit at its end.
   *
   * @return false when the excerpt has no more events (the read limit is then the excerpt's again)
   * @throws EventFormatException when a batch's next length does not fit in the excerpt: the rest
   *     of the excerpt is not read
   */
  public boolean next() throws EventFormatException {
    bytes.readLimit(limit);
    if (!batch) {
      if (k >= 0) {
        return false;
      }
      k = 0;
      bytes.readPosition(next);
      return true;
    }
    if (next >= limit) {
      bytes.readPosition(limit);
      return false;
    }
    long start = next + LENGTH_BYTES;
    long length = start <= limit ? bytes.readInt(next) : 0;
    boolean differs = delta && length < 0 && k >= 0;
    if (differs) {
      length = -length;
    }
    if (length <= 0 || length > limit - start || k + 1 >= MAX_EVENTS) {
      throw broken("batch excerpt has a broken length after its event " + (k + 1));
    }
    next = start + length;
    bytes.readPosition(start);
    bytes.readLimit(next);
    k++;
    if (delta) {
      whole((int) length, differs);
    }
    return true;
  }

  /**
   * The event of a {@link #DELTA_BATCH} batch at the bytes' read position, {@code length} bytes,
   * made whole into {@link #current} (the one before it kept as {@link #before}).
   */
  private void whole(int length, boolean differs) throws EventFormatException {
    byte[] b = current;
    current = before;
    before = b;
    int beforeLength = currentLength;
    if (!differs) {
      currentLength = 0;
      room(length);
      bytes.read(bytes.readPosition(), current, 0, length);
      currentLength = length;
      show();
      return;
    }
    if (differences.length < length) {
      differences = new byte[Math.max(Math.max(length, 256), differences.length * 2)];
    }
    bytes.read(bytes.readPosition(), differences, 0, length);
    room(beforeLength + length);
    try {
      currentLength = EventDelta.read(differences, length, before, beforeLength, current);
    } catch (EventFormatException e) {
      throw broken(
          "batch excerpt's event " + k + ", written as its differences, has " + e.getMessage());
    }
    show();
  }

  /** Puts {@link #current} into {@link #view}. */
  private void show() {
    if (view == null || view.capacity() < currentLength) {
      view = ByteBuffer.allocateDirect(Math.max(currentLength, 1024));
      viewBytes = Bytes.wrapForRead(view);
    }
    view.clear();
    view.put(current, 0, currentLength);
    viewBytes.readPositionRemaining(0, currentLength);
  }

  /**
   * Makes {@link #current} hold at least {@code length} bytes (made on the first batch of {@link
   * #DELTA_BATCH}: a reader of other excerpts never needs it).
   */
  private void room(int length) {
    if (current.length < length) {
      current = new byte[Math.max(Math.max(length, 512), current.length * 2)];
    }
  }

  private EventFormatException broken(String what) {
    next = limit;
    bytes.readLimit(limit);
    bytes.readPosition(limit);
    return new EventFormatException(EventDefect.NOT_AN_EVENT, what + "; its rest is skipped");
  }

  /**
   * The bytes of the event {@link #next} moved to, from their read position to their read limit:
   * the excerpt's own bytes, or, for an event of a {@link #DELTA_BATCH} batch, the event made
   * whole. Valid until the next call of {@link #next}.
   */
  public Bytes<?> event() {
    if (!delta) {
      return bytes;
    }
    viewBytes.readPositionRemaining(0, currentLength);
    return viewBytes;
  }

  /** The place in its excerpt of the event {@link #next} moved to: 0 for the first or only one. */
  public int k() {
    return k;
  }

  /** Whether the excerpt is a batch. */
  public boolean isBatch() {
    return batch;
  }

  /**
   * An event's place in a queue as one number, in the queue's order: its excerpt's {@code index}
   * and its place {@code k} in the excerpt. Holds for indices below 2^55 (a day-cycled queue's
   * indices are below 2^47).
   *
   * @throws ArithmeticException when {@code index} is beyond that
   */
  public static long place(long index, int k) {
    return Math.multiplyExact(index, MAX_EVENTS) + k;
  }

  /** The excerpt index of a {@link #place}; -1 for -1 (no place). */
  public static long indexOf(long place) {
    return place < 0 ? place : place / MAX_EVENTS;
  }

  /** The place in its excerpt of a {@link #place}. */
  public static int kOf(long place) {
    return place < 0 ? 0 : (int) (place % MAX_EVENTS);
  }

  /** Begins a batch in {@code out}: the bytes before its first event. */
  public static void writeBatchStart(BytesOut<?> out) {
    out.writeByte(EventWire.MAGIC);
    out.writeByte(BATCH);
  }

  /**
   * Begins an event of a batch begun by {@link #writeBatchStart}: the event is then written into
   * {@code out} in the layout of one event, and {@link #endEvent} ends it.
   *
   * @return where its length goes, for {@link #endEvent}
   */
  public static long beginEvent(Bytes<?> out) {
    long slot = out.writePosition();
    out.writeInt(0);
    return slot;
  }

  /** Ends the event begun at {@code slot} by {@link #beginEvent}: writes its length. */
  public static void endEvent(Bytes<?> out, long slot) {
    endEvent(out, slot, false);
  }

  /**
   * Ends the event begun at {@code slot} by {@link #beginEvent}, written whole or, when {@code
   * differs}, as its differences from the event before it ({@link EventDelta}); such an event makes
   * the batch, which begins at {@code batchStart}, one of {@link #DELTA_BATCH}.
   */
  public static void endEvent(Bytes<?> out, long slot, boolean differs, long batchStart) {
    if (differs) {
      out.writeByte(batchStart + 1, DELTA_BATCH);
    }
    endEvent(out, slot, differs);
  }

  private static void endEvent(Bytes<?> out, long slot, boolean differs) {
    int length = Math.toIntExact(out.writePosition() - slot - LENGTH_BYTES);
    out.writeInt(slot, differs ? -length : length);
  }

  /**
   * The bytes of a batch excerpt holding {@code events} (each the bytes of one event, in its
   * layout), as {@link #writeBatchStart}, {@link #beginEvent} and {@link #endEvent} write it.
   */
  public static byte[] batchOf(List<byte[]> events) {
    int length = FIRST_EVENT;
    for (byte[] e : events) {
      length += LENGTH_BYTES + e.length;
    }
    ByteBuffer out = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
    out.put(EventWire.MAGIC).put(BATCH);
    for (byte[] e : events) {
      out.putInt(e.length).put(e);
    }
    return out.array();
  }

  /**
   * Appends {@code events} as one batch excerpt, each payload a Smile document: the reference the
   * agent's writer is tested against, and a batch for tests and tools.
   */
  public static void append(ExcerptAppender appender, List<Event> events) {
    Bytes<?> batch = Bytes.allocateElasticOnHeap();
    writeBatchStart(batch);
    for (Event e : events) {
      long slot = beginEvent(batch);
      EventWire.write(batch, e, EventWire.payloadBytes(e.payload()));
      endEvent(batch, slot);
    }
    appender.writeBytes(batch);
  }

  /**
   * Where the event of a batch that holds only one begins: such a batch is written as an excerpt of
   * one event, from there.
   */
  public static int onlyEvent() {
    return FIRST_EVENT + LENGTH_BYTES;
  }
}
