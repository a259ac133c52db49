package dev.vigil.ingest;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * Runs a producer of items on a thread of its own, a few batches ahead of the thread that takes
 * them, so that two stages of a pass share the two cores: the decoding of an input ahead of the
 * pass that uses nearly every event it reads, and the pass's sweep of the detectors ahead of its
 * deposits (docs/COMMANDS.md#memory). Items are handed on in the order they were produced, each
 * with a number of its own (a line number, a queue index); what the producer throws is thrown to
 * the taker once the items before it are taken; a taker that throws or is interrupted stops the
 * producer at its next hand-over. At most {@value #BATCHES} batches of {@value #BATCH} items are
 * held, whatever the input's size.
 *
 * @param <T> the items
 */
public final class Prefetcher<T> {
  /** Items in one hand-over. */
  static final int BATCH = 256;

  /** Hand-overs held between the threads. */
  static final int BATCHES = 4;

  /** How long a producer waits for room before it looks whether the taker has gone. */
  private static final long WAIT_MS = 50;

  /** Produces the items on the prefetching thread, in order. */
  @FunctionalInterface
  public interface Producer<T> {
    /**
     * Produces every item into {@code out}; an {@link InterruptedIOException} from {@code out}
     * means that the taker has gone, and is to be let through.
     */
    void produce(Out<T> out) throws Exception;
  }

  /** Where the producer puts its items. */
  @FunctionalInterface
  public interface Out<T> {
    /** Puts one item; blocks while {@value #BATCHES} batches wait for the taker. */
    void put(T item, long number) throws InterruptedIOException;
  }

  /** Takes the items on the calling thread. */
  @FunctionalInterface
  public interface Taker<T> {
    void take(T item, long number) throws IOException;
  }

  /** One hand-over; the last carries the end, or what the producer threw. */
  private static final class Batch {
    final Object[] items = new Object[BATCH];
    final long[] numbers = new long[BATCH];
    int size;
    boolean last;
    Throwable failure;
  }

  private final BlockingQueue<Batch> handed = new ArrayBlockingQueue<>(BATCHES);
  private Batch filling = new Batch();

  /**
   * Set when the taker has stopped taking: a producer whose interrupt was swallowed on its way (by
   * a library it called) still stops at its next hand-over instead of waiting for room forever.
   */
  private volatile boolean takerGone;

  private Prefetcher() {}

  /**
   * Runs {@code producer} on a thread named {@code threadName} and hands its items to {@code taker}
   * on the calling thread, until the producer ends; returns when both have ended.
   *
   * @throws InterruptedIOException when the calling thread is interrupted while it waits
   */
  public static <T> void run(String threadName, Producer<T> producer, Taker<T> taker)
      throws IOException {
    Prefetcher<T> p = new Prefetcher<>();
    Thread thread = new Thread(() -> p.produce(producer), threadName);
    thread.setDaemon(true);
    thread.start();
    boolean done = false;
    try {
      p.consume(taker);
      done = true;
    } finally {
      if (!done) {
        p.takerGone = true;
        thread.interrupt(); // the taker failed: the producer stops at its next hand-over
      }
      joinQuietly(thread);
    }
  }

  @SuppressWarnings("unchecked")
  private void consume(Taker<T> taker) throws IOException {
    while (true) {
      Batch b;
      try {
        b = handed.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while reading ahead");
      }
      for (int i = 0; i < b.size; i++) {
        taker.take((T) b.items[i], b.numbers[i]);
      }
      if (b.last) {
        rethrow(b.failure);
        return;
      }
    }
  }

  private void produce(Producer<T> producer) {
    Throwable failure = null;
    try {
      producer.produce(this::put);
    } catch (InterruptedIOException e) {
      return; // the taker has gone
    } catch (Throwable t) {
      failure = t;
    }
    Batch end = filling;
    end.last = true;
    end.failure = failure;
    try {
      hand(end);
    } catch (InterruptedIOException e) {
      // the taker has gone
    }
  }

  private void put(T item, long number) throws InterruptedIOException {
    Batch b = filling;
    b.items[b.size] = item;
    b.numbers[b.size++] = number;
    if (b.size == BATCH) {
      hand(b);
      filling = new Batch();
    }
  }

  private void hand(Batch b) throws InterruptedIOException {
    try {
      while (!handed.offer(b, WAIT_MS, TimeUnit.MILLISECONDS)) {
        if (takerGone) {
          throw new InterruptedIOException("the reader of the events has stopped");
        }
      }
    } catch (InterruptedException e) {
      throw new InterruptedIOException("the reader of the events has stopped");
    }
  }

  private static void rethrow(Throwable failure) throws IOException {
    if (failure == null) {
      return;
    }
    if (failure instanceof IOException io) {
      throw io;
    }
    if (failure instanceof RuntimeException r) {
      throw r;
    }
    if (failure instanceof Error e) {
      throw e;
    }
    throw new UncheckedIOException(new IOException(failure));
  }

  private static void joinQuietly(Thread t) {
    boolean interrupted = false;
    while (true) {
      try {
        t.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
        t.interrupt();
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
