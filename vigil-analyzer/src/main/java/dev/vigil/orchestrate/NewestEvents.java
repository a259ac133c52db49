package dev.vigil.orchestrate;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Keeps the newest {@code limit} of the items offered (docs/DESIGN.md#the-window: by time, ties in
 * input order), in memory proportional to the limit. Inputs are nearly always in time order, so
 * items are first kept in a queue where the oldest falls off the front at no cost; the first item
 * older than the last one switches to a heap that evicts the oldest.
 *
 * @param <T> what is kept
 */
final class NewestEvents<T> {
  private final int limit;
  private final Comparator<T> order;
  private ArrayDeque<T> inOrder = new ArrayDeque<>();
  private PriorityQueue<T> heap;

  /**
   * @param order oldest first; ties must already be broken (by input order)
   */
  NewestEvents(int limit, Comparator<T> order) {
    this.limit = limit;
    this.order = order;
  }

  /** Offers an item in input order. */
  void add(T item) {
    if (heap == null) {
      if (inOrder.isEmpty() || order.compare(inOrder.peekLast(), item) <= 0) {
        inOrder.addLast(item);
        if (inOrder.size() > limit) {
          inOrder.pollFirst();
        }
        return;
      }
      heap = new PriorityQueue<>(Math.max(1, Math.min(limit, inOrder.size()) + 1), order);
      heap.addAll(inOrder);
      inOrder = null;
    }
    if (heap.size() >= limit && order.compare(item, heap.peek()) < 0) {
      return; // older than everything kept
    }
    heap.add(item);
    if (heap.size() > limit) {
      heap.poll();
    }
  }

  /** The items kept, oldest first. */
  List<T> oldestFirst() {
    List<T> out = new ArrayList<>(heap == null ? inOrder : heap);
    if (heap != null) {
      out.sort(order);
    }
    return out;
  }
}
