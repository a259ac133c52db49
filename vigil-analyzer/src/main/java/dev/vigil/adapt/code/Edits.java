package dev.vigil.adapt.code;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Text edits by offset into one source, applied together. Edits may not overlap; insertions at the same offset
 * keep the order in which they were added.
 */
final class Edits {
  private record Edit(int start, int end, String replacement, int order) {}

  private final List<Edit> edits = new ArrayList<>();

  /** Replaces {@code [start, end)}; false (and nothing recorded) when it would overlap an earlier edit. */
  boolean replace(int start, int end, String replacement) {
    for (Edit e : edits) {
      if (start < e.end() && e.start() < end
          || start == end && start > e.start() && start < e.end()
          || e.start() == e.end() && e.start() > start && e.start() < end) {
        return false;
      }
    }
    edits.add(new Edit(start, end, replacement, edits.size()));
    return true;
  }

  /** Inserts text at an offset. */
  boolean insert(int at, String text) {
    return replace(at, at, text);
  }

  boolean isEmpty() {
    return edits.isEmpty();
  }

  /** True when some edit touches {@code [start, end)}. */
  boolean touches(int start, int end) {
    for (Edit e : edits) {
      if (e.start() < end && start < e.end() || e.start() == e.end() && e.start() >= start && e.start() < end) {
        return true;
      }
    }
    return false;
  }

  /** The text with every edit applied. */
  String applyTo(String text) {
    List<Edit> sorted = new ArrayList<>(edits);
    sorted.sort(Comparator.comparingInt(Edit::start)
        .thenComparing(e -> e.end() > e.start())
        .thenComparingInt(Edit::order));
    StringBuilder out = new StringBuilder(text.length() + 256);
    int at = 0;
    for (Edit e : sorted) {
      out.append(text, at, e.start()).append(e.replacement());
      at = e.end();
    }
    return out.append(text, at, text.length()).toString();
  }
}
