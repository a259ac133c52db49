package dev.vigil.diagnose.detect;

import java.util.Arrays;

/**
 * One tool's call durations in the window, for {@link Latency}: every duration while there are at
 * most {@code exactLimit} (so the median is exact), then a {@link DurationSketch} that holds them
 * all in fixed memory.
 */
final class ToolDurations {
  private final int exactLimit;
  private double[] exact = new double[16];
  private int n;
  private DurationSketch sketch;

  /** Keeps up to {@code exactLimit} durations exactly. */
  ToolDurations(int exactLimit) {
    this.exactLimit = exactLimit;
  }

  /**
   * Adds a duration in milliseconds; the one after the first {@code exactLimit} moves them all to
   * the sketch.
   */
  void add(double ms) {
    if (sketch == null && n == exactLimit) {
      sketch = new DurationSketch();
      for (int i = 0; i < n; i++) {
        sketch.add(exact[i]);
      }
      exact = null;
    }
    if (sketch != null) {
      sketch.add(ms);
      return;
    }
    if (n == exact.length) {
      exact = Arrays.copyOf(exact, Math.min(exactLimit, n * 2));
    }
    exact[n++] = ms;
  }

  /** Whether every duration is still held, so the median is exact. */
  boolean isExact() {
    return sketch == null;
  }

  /** How many durations were added. */
  long count() {
    return sketch == null ? n : sketch.count();
  }

  /**
   * The median: exact while {@link #isExact}, else within {@link DurationSketch#ALPHA}; 0 when
   * there are none.
   */
  double median() {
    if (sketch != null) {
      return sketch.median();
    }
    if (n == 0) {
      return 0;
    }
    double[] d = Arrays.copyOf(exact, n);
    Arrays.sort(d);
    return n % 2 == 1 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
  }
}
