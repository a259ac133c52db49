package dev.vigil.observe.writer;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The hand-off from the application's threads to the one writer thread: a ring of slots, as in the
 * array-based multi-producer single-consumer queues of JCTools ({@code MpscArrayQueue}). A producer
 * takes the next index with one atomic increment and puts its element in that slot; the consumer
 * takes the slots in index order and empties each. Nothing is allocated per element, and the
 * consumer reads sixteen slots a cache line, where the linked queue it replaces (Vyukov's
 * node-based one) allocated a node per element and moved one more cache line from the calling core
 * to the writer's for each.
 *
 * <p>Departures from JCTools: the ring does not check for room itself; the caller never has more
 * elements waiting than its capacity ({@link EventWriter} counts them, and takes a count down only
 * after the elements were polled), so a producer's slot has always been emptied. The slot is
 * written with a volatile write rather than a release, so that a producer's later volatile read
 * (the writer's "sleeping" flag in {@link EventWriter}) cannot be ordered before it; together with
 * the writer setting that flag before it last looks for work, a call is never left waiting for a
 * sleeping writer. Between a producer's increment and its write the ring may look empty at that
 * slot to the consumer for an instant; the element is seen on the next poll.
 *
 * @param <T> the element type
 */
final class HandOff<T> {
  /**
   * The consumer's index, alone and padded in an object of its own: written at every poll, read by
   * no producer.
   */
  @SuppressWarnings("unused") // the padding
  private static final class ConsumerIndex {
    long p0;
    long p1;
    long p2;
    long p3;
    long p4;
    long p5;
    long p6;
    long value;
    long q0;
    long q1;
    long q2;
    long q3;
    long q4;
    long q5;
    long q6;
  }

  private final AtomicReferenceArray<T> slots;
  private final int mask;
  private final AtomicLong producerIndex = new AtomicLong();
  private final ConsumerIndex consumer = new ConsumerIndex();

  /** A ring for at most {@code capacity} waiting elements. */
  HandOff(int capacity) {
    int size = Integer.highestOneBit(Math.max(2, capacity));
    if (size < capacity) {
      size <<= 1;
    }
    slots = new AtomicReferenceArray<>(size);
    mask = size - 1;
  }

  /**
   * Appends {@code value}; any thread, never blocks. Fewer than the capacity may be waiting (see
   * the class).
   */
  void offer(T value) {
    long index = producerIndex.getAndIncrement();
    slots.set((int) index & mask, value);
  }

  /** The oldest element, or null when none is visible; the consumer thread only. */
  T poll() {
    int at = (int) consumer.value & mask;
    T value = slots.get(at);
    if (value == null) {
      return null;
    }
    slots.lazySet(at, null);
    consumer.value++;
    return value;
  }

  /** Whether no element is visible; the consumer thread only. */
  boolean isEmpty() {
    return slots.get((int) consumer.value & mask) == null;
  }
}
