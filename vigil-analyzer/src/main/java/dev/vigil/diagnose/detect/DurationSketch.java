package dev.vigil.diagnose.detect;

/**
 * The running median of a tool's call durations in memory of fixed size, within {@value #ALPHA}
 * relative error: the log-bucket histogram of DDSketch (Masson, Rim and Lee, "DDSketch: a fast and
 * fully-mergeable quantile sketch with relative-error guarantees", VLDB 2019). A duration x falls
 * in bucket {@code ceil(log_γ x)} with {@code γ = (1 + α) / (1 - α)}, and a bucket stands for
 * {@code 2γ^i / (γ + 1)}, within α of every value in it.
 *
 * <p>Departs from the paper: the buckets are a fixed dense array from {@value #MIN_MS} ms to
 * {@value #MAX_MS} ms (durations below go to a zero bucket, above to the last; about 1,700
 * counters, never collapsed), and the median's bucket is tracked as values arrive, so reading the
 * median does not scan the buckets. The median of an even count is the mean of the two middle
 * values, as in {@link Latency}'s exact median.
 */
final class DurationSketch {
  /** The relative error of a value read back. */
  static final double ALPHA = 0.01;

  /** The smallest duration told apart from zero, in milliseconds (a microsecond). */
  static final double MIN_MS = 1e-3;

  /** The largest duration told apart, in milliseconds (about 31 years). */
  static final double MAX_MS = 1e12;

  private static final double GAMMA = (1 + ALPHA) / (1 - ALPHA);
  private static final double LOG_GAMMA = Math.log(GAMMA);
  private static final int LOW = index(MIN_MS);
  private static final int SLOTS = index(MAX_MS) - LOW + 2;

  private final int[] counts = new int[SLOTS];
  private long n;

  /** The slot holding the lower middle value (rank {@code (n - 1) / 2}). */
  private int at;

  /** How many values lie in slots below {@link #at}. */
  private long below;

  private static int index(double ms) {
    return (int) Math.ceil(Math.log(ms) / LOG_GAMMA);
  }

  private static int slot(double ms) {
    if (!(ms >= MIN_MS)) {
      return 0;
    }
    return Math.min(index(Math.min(ms, MAX_MS)) - LOW + 1, SLOTS - 1);
  }

  private static double value(int slot) {
    return slot == 0 ? 0 : 2 * Math.pow(GAMMA, slot - 1 + LOW) / (GAMMA + 1);
  }

  /** Adds a duration in milliseconds. */
  void add(double ms) {
    int s = slot(ms);
    counts[s]++;
    n++;
    if (n == 1) {
      at = s;
      below = 0;
      return;
    }
    if (s < at) {
      below++;
    }
    long k = (n - 1) / 2;
    while (below > k) {
      at = previous(at);
      below -= counts[at];
    }
    while (below + counts[at] <= k) {
      below += counts[at];
      at = next(at);
    }
  }

  /** How many durations were added. */
  long count() {
    return n;
  }

  /** The median of the durations added, within {@link #ALPHA}; 0 when none were. */
  double median() {
    if (n == 0) {
      return 0;
    }
    double lower = value(at);
    boolean sameSlot = n % 2 == 1 || below + counts[at] > n / 2;
    return sameSlot ? lower : (lower + value(next(at))) / 2;
  }

  private int previous(int slot) {
    int s = slot - 1;
    while (counts[s] == 0) {
      s--;
    }
    return s;
  }

  private int next(int slot) {
    int s = slot + 1;
    while (counts[s] == 0) {
      s++;
    }
    return s;
  }
}
