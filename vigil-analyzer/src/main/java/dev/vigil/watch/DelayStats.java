package dev.vigil.watch;

import java.util.Arrays;

/**
 * The delay from a tool call's append to the queue to its appraisal being committed in the EmoBank,
 * in microseconds. The append time is the event's {@code ts + duration_ms} (the agent writes the
 * event when the call returns); the appraisal time is the wall clock right after the bank's commit.
 * Keeps the last {@value #CAPACITY} samples.
 */
public final class DelayStats {
  static final int CAPACITY = 100_000;

  private final long[] samples = new long[CAPACITY];
  private long count;

  /** Adds one delay, in microseconds. */
  public synchronized void add(long micros) {
    samples[(int) (count % CAPACITY)] = micros;
    count++;
  }

  /** The figures over the kept samples. */
  public synchronized Summary summary() {
    int n = (int) Math.min(count, CAPACITY);
    if (n == 0) {
      return new Summary(0, Double.NaN, Double.NaN, Double.NaN);
    }
    long[] sorted = Arrays.copyOf(samples, n);
    Arrays.sort(sorted);
    return new Summary(
        count,
        percentile(sorted, 50) / 1000.0,
        percentile(sorted, 99) / 1000.0,
        sorted[n - 1] / 1000.0);
  }

  /** Nearest-rank percentile. */
  static long percentile(long[] sorted, int p) {
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, rank - 1)];
  }

  /**
   * The delays measured, in brief.
   *
   * @param events events measured (all time; the figures use the last {@value DelayStats#CAPACITY})
   * @param medianMs the median, in milliseconds (NaN without samples)
   * @param p99Ms the 99th percentile, in milliseconds
   * @param maxMs the largest, in milliseconds
   */
  public record Summary(long events, double medianMs, double p99Ms, double maxMs) {
    /** {@code delay median=1.2ms p99=8.4ms n=300}, or {@code delay n=0}. */
    public String line() {
      if (events == 0) {
        return "delay n=0";
      }
      return String.format(
          java.util.Locale.ROOT, "delay median=%.1fms p99=%.1fms n=%d", medianMs, p99Ms, events);
    }
  }
}
