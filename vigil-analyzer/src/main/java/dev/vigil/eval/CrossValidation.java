package dev.vigil.eval;

import dev.vigil.learn.FeatureFamilies;
import dev.vigil.learn.FeatureSpace;
import dev.vigil.learn.LinearFit;
import dev.vigil.learn.Observations;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * Nested, group-disjoint cross-validation of the session model (docs/MODEL.md). Each outer fold's
 * model is fitted on the other folds alone: its vocabulary, and its cost chosen among {@link
 * #COSTS} by an inner group-disjoint cross-validation of those training sessions; its margins on
 * the held-out fold are what {@code cv_auroc} measures.
 */
final class CrossValidation {
  /** The costs (inverse L2 penalties) tried. */
  static final double[] COSTS = {0.1, 0.3, 1, 3, 10};

  /** The folds of the inner cross-validation that chooses the cost. */
  static final int INNER_FOLDS = 3;

  /** The cost when too few groups are left to choose one. */
  static final double DEFAULT_COST = 1;

  /**
   * The outcome.
   *
   * @param margins each session's out-of-fold margin
   * @param costs the cost each outer fold chose
   */
  // an array on purpose: a result handed to the caller once, never compared
  @SuppressWarnings("ArrayRecordComponent")
  record Result(double[] margins, List<Double> costs) {}

  private final FeatureFamilies families;
  private final long seed;

  CrossValidation(FeatureFamilies families, long seed) {
    this.families = families;
    this.seed = seed;
  }

  /** Out-of-fold margins over {@code k} group-disjoint folds; a progress line after each fold. */
  Result run(
      List<Observations> obs,
      boolean[] failed,
      List<String> groups,
      int k,
      Consumer<String> progress) {
    int[] fold = GroupFolds.of(groups, k, seed);
    double[] margins = new double[obs.size()];
    Double[] chosen = new Double[k];
    // the folds are independent: fitted side by side on the machine's cores, each writing only its
    // own sessions'
    // margins, so the result does not depend on their order
    IntStream.range(0, k)
        .parallel()
        .forEach(
            f -> {
              List<Integer> train = new ArrayList<>();
              List<Integer> test = new ArrayList<>();
              for (int i = 0; i < obs.size(); i++) {
                (fold[i] == f ? test : train).add(i);
              }
              if (test.isEmpty()) {
                return;
              }
              if (!both(pick(failed, train))) {
                report(
                    progress,
                    "fold "
                        + (f + 1)
                        + " of "
                        + k
                        + ": its training sessions are of one class; scored 0");
                return;
              }
              double cost = chooseCost(pick(obs, train), pick(failed, train), pick(groups, train));
              chosen[f] = cost;
              double[][] m = margins(obs, failed, train, test, new double[] {cost});
              for (int j = 0; j < test.size(); j++) {
                margins[test.get(j)] = m[0][j];
              }
              report(
                  progress,
                  "fold "
                      + (f + 1)
                      + " of "
                      + k
                      + " fitted ("
                      + train.size()
                      + " sessions, cost "
                      + cost
                      + "), scored "
                      + test.size());
            });
    return new Result(margins, chosenCosts(chosen));
  }

  /** The costs chosen in the folds that were fitted, in fold order. */
  private static List<Double> chosenCosts(Double[] chosen) {
    List<Double> costs = new ArrayList<>();
    for (Double c : chosen) {
      if (c != null) {
        costs.add(c);
      }
    }
    return costs;
  }

  private static void report(Consumer<String> progress, String line) {
    synchronized (progress) {
      progress.accept(line);
    }
  }

  /**
   * The cost of {@link #COSTS} whose inner cross-validated AUROC is highest (ties: the smaller).
   */
  double chooseCost(List<Observations> obs, boolean[] failed, List<String> groups) {
    int k = Math.min(INNER_FOLDS, GroupFolds.count(groups));
    if (k < 2) {
      return DEFAULT_COST;
    }
    int[] fold = GroupFolds.of(groups, k, seed + 1);
    double[][] oof = new double[COSTS.length][obs.size()];
    for (int f = 0; f < k; f++) {
      List<Integer> train = new ArrayList<>();
      List<Integer> test = new ArrayList<>();
      for (int i = 0; i < obs.size(); i++) {
        (fold[i] == f ? test : train).add(i);
      }
      boolean[] y = pick(failed, train);
      if (test.isEmpty() || !both(y)) {
        continue;
      }
      double[][] m = margins(obs, failed, train, test, COSTS);
      for (int c = 0; c < COSTS.length; c++) {
        for (int j = 0; j < test.size(); j++) {
          oof[c][test.get(j)] = m[c][j];
        }
      }
    }
    double best = DEFAULT_COST;
    double bestArea = -1;
    for (int c = 0; c < COSTS.length; c++) {
      Double area = Auroc.of(oof[c], failed);
      if (area != null && area > bestArea + 1e-9) {
        bestArea = area;
        best = COSTS[c];
      }
    }
    return best;
  }

  /** The margins of the test sessions under a model fitted on the train sessions, for each cost. */
  private double[][] margins(
      List<Observations> obs,
      boolean[] failed,
      List<Integer> train,
      List<Integer> test,
      double[] costs) {
    FeatureSpace space = FeatureSpace.fit(pick(obs, train), families);
    List<Map<String, Double>> x = new ArrayList<>(train.size());
    List<Boolean> y = new ArrayList<>(train.size());
    for (int i : train) {
      x.add(space.vector(obs.get(i)));
      y.add(failed[i]);
    }
    List<Map<String, Double>> tx = new ArrayList<>(test.size());
    test.forEach(i -> tx.add(space.vector(obs.get(i))));
    double[][] out = new double[costs.length][test.size()];
    LinearFit.Data data = LinearFit.data(x, y);
    for (int c = 0; c < costs.length; c++) {
      LinearFit.Weights w = LinearFit.fit(data, costs[c], true);
      for (int j = 0; j < test.size(); j++) {
        out[c][j] = w.margin(tx.get(j));
      }
    }
    return out;
  }

  private static boolean both(boolean[] y) {
    boolean t = false;
    boolean f = false;
    for (boolean b : y) {
      t |= b;
      f |= !b;
    }
    return t && f;
  }

  static <T> List<T> pick(List<T> all, List<Integer> idx) {
    List<T> out = new ArrayList<>(idx.size());
    idx.forEach(i -> out.add(all.get(i)));
    return out;
  }

  static boolean[] pick(boolean[] all, List<Integer> idx) {
    boolean[] out = new boolean[idx.size()];
    for (int j = 0; j < idx.size(); j++) {
      out[j] = all[idx.get(j)];
    }
    return out;
  }
}
