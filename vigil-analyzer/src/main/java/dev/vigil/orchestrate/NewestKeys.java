package dev.vigil.orchestrate;

/**
 * The newest {@code limit} of the events offered, kept as two numbers each (the event's time in
 * nanoseconds and its place in the input) in a min-heap of primitive arrays: what the first reading
 * of {@code run}'s input keeps to find where the newest {@code --limit} events begin
 * (docs/DESIGN.md#the-window: by time, ties in input order), and the ref (JSONL line) of each, so
 * that the second reading can pass over the lines before the first one used without parsing them.
 * 24 bytes an event, at most {@code limit} events, whatever the input's size.
 */
final class NewestKeys {
  private final int limit;
  private long[] ts = new long[16];
  private long[] order = new long[16];
  private long[] refs = new long[16];
  private int size;

  NewestKeys(int limit) {
    this.limit = limit;
  }

  /** Offers an event's key. */
  void add(long tsNanos, long inputOrder, long ref) {
    if (size < limit) {
      if (size == ts.length) {
        int grown = (int) Math.min(limit, (long) ts.length * 2);
        ts = java.util.Arrays.copyOf(ts, grown);
        order = java.util.Arrays.copyOf(order, grown);
        refs = java.util.Arrays.copyOf(refs, grown);
      }
      ts[size] = tsNanos;
      order[size] = inputOrder;
      refs[size] = ref;
      up(size++);
    } else if (size > 0 && less(ts[0], order[0], tsNanos, inputOrder)) {
      ts[0] = tsNanos;
      order[0] = inputOrder;
      refs[0] = ref;
      down(0);
    }
  }

  /**
   * Offers every key {@code other} keeps, its places and refs moved on by {@code shift} (a later
   * part's).
   */
  void addAll(NewestKeys other, long shift) {
    for (int i = 0; i < other.size; i++) {
      add(other.ts[i], other.order[i] + shift, other.refs[i] + shift);
    }
  }

  /** How many are kept. */
  int size() {
    return size;
  }

  /** The oldest key kept: the time of the oldest event used (only when something is kept). */
  long oldestTs() {
    return ts[0];
  }

  /** The input order of the oldest event used (only when something is kept). */
  long oldestOrder() {
    return order[0];
  }

  /** The smallest ref of the events kept (only when something is kept). */
  long minRef() {
    long min = Long.MAX_VALUE;
    for (int i = 0; i < size; i++) {
      min = Math.min(min, refs[i]);
    }
    return min;
  }

  /** Whether key a comes before key b. */
  static boolean less(long tsA, long orderA, long tsB, long orderB) {
    return tsA < tsB || (tsA == tsB && orderA < orderB);
  }

  private void up(int i) {
    while (i > 0) {
      int parent = (i - 1) / 2;
      if (!less(ts[i], order[i], ts[parent], order[parent])) {
        return;
      }
      swap(i, parent);
      i = parent;
    }
  }

  private void down(int i) {
    while (true) {
      int l = 2 * i + 1;
      if (l >= size) {
        return;
      }
      int least = l + 1 < size && less(ts[l + 1], order[l + 1], ts[l], order[l]) ? l + 1 : l;
      if (!less(ts[least], order[least], ts[i], order[i])) {
        return;
      }
      swap(i, least);
      i = least;
    }
  }

  private void swap(int a, int b) {
    long t = ts[a];
    ts[a] = ts[b];
    ts[b] = t;
    long o = order[a];
    order[a] = order[b];
    order[b] = o;
    long r = refs[a];
    refs[a] = refs[b];
    refs[b] = r;
  }
}
