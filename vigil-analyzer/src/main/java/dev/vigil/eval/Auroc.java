package dev.vigil.eval;

import java.util.Arrays;

/**
 * The area under the ROC curve of a score for predicting {@code failed}, as the Mann-Whitney U
 * statistic: the share of (failed, good) pairs in which the failed session scores higher, a tie
 * counted one half. It is undefined (null) when either class is empty.
 *
 * <p>Scores are ranked once into ascending distinct levels ({@link #levels}); the area of any
 * weighting of the sessions (a bootstrap resample) is then one sweep over the levels, {@link
 * #ofLevelCounts}, without sorting again.
 */
final class Auroc {
  private Auroc() {}

  /**
   * The AUROC of {@code scores} for predicting {@code failed}, or null when all sessions are of one
   * class.
   *
   * @throws IllegalArgumentException when the arrays differ in length or a score is not a number
   */
  static Double of(double[] scores, boolean[] failed) {
    int[] level = levels(scores);
    int n = Arrays.stream(level).max().orElse(-1) + 1;
    long[] pos = new long[n];
    long[] neg = new long[n];
    if (failed.length != scores.length) {
      throw new IllegalArgumentException(
          scores.length + " scores but " + failed.length + " labels");
    }
    for (int i = 0; i < scores.length; i++) {
      if (failed[i]) {
        pos[level[i]]++;
      } else {
        neg[level[i]]++;
      }
    }
    return ofLevelCounts(pos, neg);
  }

  /**
   * Each score's level: the index of its value among the distinct values, ascending (equal scores
   * share a level).
   *
   * @throws IllegalArgumentException when a score is not a number
   */
  static int[] levels(double[] scores) {
    for (int i = 0; i < scores.length; i++) {
      if (Double.isNaN(scores[i])) {
        throw new IllegalArgumentException("score " + i + " is not a number");
      }
    }
    double[] distinct = Arrays.stream(scores).sorted().distinct().toArray();
    int[] level = new int[scores.length];
    for (int i = 0; i < scores.length; i++) {
      level[i] = Arrays.binarySearch(distinct, scores[i]);
    }
    return level;
  }

  /**
   * The AUROC from counts per ascending score level: {@code pos[l]} failed and {@code neg[l]} good
   * sessions at level {@code l}; null when either total is zero.
   */
  static Double ofLevelCounts(long[] pos, long[] neg) {
    double wins = 0;
    long negBelow = 0;
    long posTotal = 0;
    for (int l = 0; l < pos.length; l++) {
      wins += pos[l] * (negBelow + neg[l] / 2.0);
      negBelow += neg[l];
      posTotal += pos[l];
    }
    if (posTotal == 0 || negBelow == 0) {
      return null;
    }
    return wins / ((double) posTotal * negBelow);
  }
}
