package dev.vigil.diagnose.detect;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The successes {@link PrematureSuccess} keeps while they may still get their confirmation: oldest
 * first, indexed by their id values, at most {@code limit} of them, each a {@link EventFields#slim
 * compact copy}.
 */
final class PendingSuccesses {
  /** Id values of one success that are indexed (a result listing many records has many). */
  static final int MAX_IDS = 32;

  /** One success waiting. */
  static final class Success {
    final long order;
    final WindowEvent event;
    final String[] ids;
    final Instant reportedAt;
    boolean confirmed;

    private Success(long order, WindowEvent event, String[] ids, Instant reportedAt) {
      this.order = order;
      this.event = event;
      this.ids = ids;
      this.reportedAt = reportedAt;
    }

    String kind() {
      return event.event().kind();
    }

    /** The first of {@code ids} (in their order) this success carries too, or null. */
    String firstShared(Set<String> ids) {
      for (String id : ids) {
        for (String mine : this.ids) {
          if (mine.equals(id)) {
            return id;
          }
        }
      }
      return null;
    }

    /**
     * Whether this call ran on the same thread from before {@code inner} started until after it
     * answered.
     */
    boolean encloses(Success inner) {
      String thread = event.event().thread();
      return thread != null
          && thread.equals(inner.event.event().thread())
          && !event.event().ts().isAfter(inner.event.event().ts())
          && !reportedAt.isBefore(inner.reportedAt);
    }
  }

  /**
   * The success a confirmation belongs to, and the id they share.
   *
   * @param success the owner
   * @param id the first of the confirmation's ids the owner carries
   */
  record Owner(Success success, String id) {}

  private final int limit;
  private final ArrayDeque<Success> waiting = new ArrayDeque<>();
  private final Map<String, ArrayDeque<Success>> byId = new HashMap<>();
  private long order;

  /** Keeps at most {@code limit} successes. */
  PendingSuccesses(int limit) {
    this.limit = limit;
  }

  /**
   * Adds a success (a compact copy) with its id values.
   *
   * @return the oldest success, dropped because {@code limit} were waiting; or null
   */
  Success add(WindowEvent slim, Set<String> ids) {
    Success dropped = waiting.size() >= limit ? remove() : null;
    String[] kept = new String[Math.min(ids.size(), MAX_IDS)];
    Iterator<String> it = ids.iterator();
    for (int i = 0; i < kept.length; i++) {
      kept[i] = it.next();
    }
    Success s = new Success(order++, slim, kept, EventFields.reportedAt(slim.event()));
    waiting.addLast(s);
    for (String id : kept) {
      byId.computeIfAbsent(id, k -> new ArrayDeque<>()).addLast(s);
    }
    return dropped;
  }

  /** A success that waits for nothing (it has no id value), judged at once. */
  Success unindexed(WindowEvent slim) {
    return new Success(-1, slim, new String[0], EventFields.reportedAt(slim.event()));
  }

  /**
   * The oldest success reported more than {@code horizon} before {@code now}, taken out; or null.
   */
  Success expired(Instant now, Duration horizon) {
    Success oldest = waiting.peekFirst();
    return oldest != null && Duration.between(oldest.reportedAt, now).compareTo(horizon) > 0
        ? remove()
        : null;
  }

  /** Takes every success out, oldest first. */
  List<Success> drain() {
    List<Success> out = new ArrayList<>(waiting);
    waiting.clear();
    byId.clear();
    return out;
  }

  /**
   * The success a confirmation with these ids belongs to: the nearest earlier one sharing an id, or
   * the outermost call on its thread that encloses it and shares an id too (the tool call around
   * the backend call); null when none.
   */
  Owner owner(Set<String> ids) {
    List<Iterator<Success>> lists = new ArrayList<>();
    List<Success> heads = new ArrayList<>();
    for (String id : ids) {
      ArrayDeque<Success> list = byId.get(id);
      if (list != null) {
        Iterator<Success> it = list.descendingIterator();
        lists.add(it);
        heads.add(it.next());
      }
    }
    Owner owner = null;
    Success previous = null;
    while (true) {
      int newest = -1;
      for (int i = 0; i < heads.size(); i++) {
        if (heads.get(i) != null && (newest < 0 || heads.get(i).order > heads.get(newest).order)) {
          newest = i;
        }
      }
      if (newest < 0) {
        return owner;
      }
      Success s = heads.get(newest);
      heads.set(newest, lists.get(newest).hasNext() ? lists.get(newest).next() : null);
      if (s == previous) {
        continue; // shares more than one id with the confirmation
      }
      previous = s;
      if (owner == null || s.encloses(owner.success())) {
        owner = new Owner(s, s.firstShared(ids));
      } else {
        return owner;
      }
    }
  }

  /** How many successes are waiting. */
  int size() {
    return waiting.size();
  }

  private Success remove() {
    Success s = waiting.pollFirst();
    for (String id : s.ids) {
      ArrayDeque<Success> list = byId.get(id);
      if (list != null && list.peekFirst() == s) {
        list.pollFirst();
        if (list.isEmpty()) {
          byId.remove(id);
        }
      }
    }
    return s;
  }
}
