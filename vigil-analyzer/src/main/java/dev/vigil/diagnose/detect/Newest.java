package dev.vigil.diagnose.detect;

import java.util.ArrayDeque;
import java.util.List;

/**
 * The newest {@code limit} items added, and how many were added in all: a detector's list of
 * instances or cited events in memory that does not grow with the window.
 *
 * @param <T> what is kept
 */
public final class Newest<T> {
  private final int limit;
  private final ArrayDeque<T> items = new ArrayDeque<>();
  private long total;

  /** Keeps at most {@code limit} items. */
  public Newest(int limit) {
    this.limit = limit;
  }

  /** Adds an item; the oldest kept falls off once {@code limit} are kept. */
  public void add(T item) {
    total++;
    items.addLast(item);
    if (items.size() > limit) {
      items.pollFirst();
    }
  }

  /**
   * Adds an item: {@code reuse} gets the item that falls off (emptied by the caller for its new
   * use), or makes one while fewer than {@code limit} are kept; so that a long run of items makes
   * no garbage.
   */
  public T addReusing(java.util.function.UnaryOperator<T> reuse) {
    T item = reuse.apply(items.size() == limit ? items.pollFirst() : null);
    total++;
    items.addLast(item);
    return item;
  }

  /** The items kept, oldest first. */
  public List<T> items() {
    return List.copyOf(items);
  }

  /** The newest item, or null. */
  public T last() {
    return items.peekLast();
  }

  /** How many were added in all. */
  public long total() {
    return total;
  }

  /** Whether some were added and not kept. */
  public boolean cut() {
    return total > items.size();
  }
}
