package dev.vigil.eval;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A 95 % percentile bootstrap interval of the AUROC, stratified: each resample draws as many failed
 * sessions from the failed ones, and as many good ones from the good ones, with replacement, as the
 * sample holds (so every resample has both classes, as in pROC's default). The random stream comes
 * from a fixed seed, so the interval is the same on every run over the same input. The interval's
 * ends are the 2.5th and 97.5th percentiles of the resamples' areas, interpolated linearly between
 * order statistics.
 *
 * @param resamples how many resamples
 * @param seed the seed of the random stream
 */
record Bootstrap(int resamples, long seed) {
  /** The default: 2000 resamples, seed 20261122. */
  static final Bootstrap DEFAULT = new Bootstrap(2000, 20261122L);

  /** An interval: the lower and upper ends. */
  record Interval(double low, double high) {}

  Bootstrap {
    if (resamples < 1) {
      throw new IllegalArgumentException("resamples must be at least 1, not " + resamples);
    }
  }

  /**
   * The interval of the AUROC of {@code scores} for {@code failed}, or null when one class is
   * empty.
   */
  Interval interval(double[] scores, boolean[] failed) {
    int[] level = Auroc.levels(scores);
    int levels = Arrays.stream(level).max().orElse(-1) + 1;
    int[] posLevel = select(level, failed, true);
    int[] negLevel = select(level, failed, false);
    if (posLevel.length == 0 || negLevel.length == 0) {
      return null;
    }
    SplittableRandom random = new SplittableRandom(seed);
    double[] areas = new double[resamples];
    long[] pos = new long[levels];
    long[] neg = new long[levels];
    for (int r = 0; r < resamples; r++) {
      Arrays.fill(pos, 0);
      Arrays.fill(neg, 0);
      for (int i = 0; i < posLevel.length; i++) {
        pos[posLevel[random.nextInt(posLevel.length)]]++;
      }
      for (int i = 0; i < negLevel.length; i++) {
        neg[negLevel[random.nextInt(negLevel.length)]]++;
      }
      areas[r] = Auroc.ofLevelCounts(pos, neg);
    }
    Arrays.sort(areas);
    return new Interval(percentile(areas, 0.025), percentile(areas, 0.975));
  }

  /** The {@code p} quantile of sorted values, interpolated linearly between order statistics. */
  static double percentile(double[] sorted, double p) {
    double at = p * (sorted.length - 1);
    int below = (int) Math.floor(at);
    int above = Math.min(below + 1, sorted.length - 1);
    return sorted[below] + (at - below) * (sorted[above] - sorted[below]);
  }

  private static int[] select(int[] level, boolean[] failed, boolean which) {
    int n = 0;
    for (boolean f : failed) {
      n += f == which ? 1 : 0;
    }
    int[] out = new int[n];
    int k = 0;
    for (int i = 0; i < level.length; i++) {
      if (failed[i] == which) {
        out[k++] = level[i];
      }
    }
    return out;
  }
}
