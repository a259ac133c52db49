package dev.vigil.observe.agent;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The unbounded hand-off from the application's threads to the one writer thread: Dmitry Vyukov's non-intrusive
 * multi-producer single-consumer node-based queue (1024cores.net, "Non-intrusive MPSC node-based queue"). A producer
 * swaps itself in as the tail with one atomic exchange and links its predecessor to it; the consumer walks from a
 * head only it touches. Unlike {@link java.util.concurrent.ConcurrentLinkedQueue}, whose head and tail share one
 * object (so the writer's progress and the callers' appends contend for the same cache line), the tail lives in its
 * own object and the head in the consumer's.
 *
 * <p>Departure from the original: the link is a volatile write rather than a release, so that a producer's later
 * volatile read (the writer's "sleeping" flag in {@link EventWriter}) cannot be ordered before it; together with
 * the writer setting that flag before it last looks for work, a call is never left waiting for a sleeping writer.
 * Between a producer's exchange and its link the queue may look empty to the consumer for an instant; the element
 * is seen on the next poll. A node the consumer has passed is unlinked, as {@code ConcurrentLinkedQueue} does, so
 * that a dead node in the old generation cannot keep the young ones after it alive.
 *
 * @param <T> the element type
 */
final class HandOff<T> {
  private static final VarHandle NEXT;

  static {
    try {
      NEXT = MethodHandles.lookup().findVarHandle(Node.class, "next", Node.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** One element; {@code next} is written once, by the producer that appended the following node. */
  static final class Node<T> {
    @SuppressWarnings("unused") // through NEXT
    private volatile Node<T> next;
    private T value;

    Node(T value) {
      this.value = value;
    }
  }

  private final AtomicReference<Node<T>> tail;
  /** The consumer's: the last node taken (its value already handed out). */
  private Node<T> head;

  HandOff() {
    Node<T> stub = new Node<>(null);
    head = stub;
    tail = new AtomicReference<>(stub);
  }

  /** Appends {@code value}; any thread, never blocks. */
  void offer(T value) {
    Node<T> node = new Node<>(value);
    Node<T> previous = tail.getAndSet(node);
    NEXT.setVolatile(previous, node);
  }

  /** The oldest element, or null when none is visible; the consumer thread only. */
  @SuppressWarnings("unchecked")
  T poll() {
    Node<T> next = (Node<T>) NEXT.getVolatile(head);
    if (next == null) {
      return null;
    }
    T value = next.value;
    next.value = null;
    // unlink the node left behind: once promoted to the old generation, a dead node still pointing at the next one
    // would keep every later node alive through each young collection (nepotism), and the pauses would grow
    NEXT.set(head, null);
    head = next;
    return value;
  }

  /** Whether no element is visible; the consumer thread only. */
  boolean isEmpty() {
    return NEXT.getVolatile(head) == null;
  }
}
