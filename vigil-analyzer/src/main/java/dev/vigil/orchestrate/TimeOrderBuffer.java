package dev.vigil.orchestrate;

import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.PriorityQueue;

/**
 * Items held to be handed on in order, oldest first: those that come in order wait in a queue at no
 * cost, and only those that come earlier than the newest held go to a heap; the oldest of both goes
 * first. Input in order (nearly all of it) costs O(1) an item rather than a heap's O(log n).
 *
 * @param <T> what is held
 */
final class TimeOrderBuffer<T> {
  private final Comparator<T> order;
  private final ArrayDeque<T> inOrder = new ArrayDeque<>();
  private final PriorityQueue<T> early;

  TimeOrderBuffer(Comparator<T> order) {
    this.order = order;
    this.early = new PriorityQueue<>(order);
  }

  /** Holds an item. */
  void add(T item) {
    if (inOrder.isEmpty() || order.compare(inOrder.peekLast(), item) <= 0) {
      inOrder.addLast(item);
    } else {
      early.add(item);
    }
  }

  /** How many are held. */
  int size() {
    return inOrder.size() + early.size();
  }

  /** Whether nothing is held. */
  boolean isEmpty() {
    return inOrder.isEmpty() && early.isEmpty();
  }

  /** Removes and returns the oldest held (only when something is held). */
  T poll() {
    if (early.isEmpty()) {
      return inOrder.pollFirst();
    }
    if (inOrder.isEmpty() || order.compare(early.peek(), inOrder.peekFirst()) <= 0) {
      return early.poll();
    }
    return inOrder.pollFirst();
  }
}
