package dev.vigil.learn;

import de.bwaldvogel.liblinear.Linear;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.tribuo.ImmutableFeatureMap;
import org.tribuo.MutableDataset;
import org.tribuo.classification.Label;
import org.tribuo.classification.LabelFactory;
import org.tribuo.classification.liblinear.LibLinearClassificationModel;
import org.tribuo.classification.liblinear.LibLinearClassificationTrainer;
import org.tribuo.classification.liblinear.LinearClassificationType;
import org.tribuo.impl.ArrayExample;
import org.tribuo.provenance.SimpleDataSourceProvenance;

/**
 * Fits an L2-regularized logistic regression with Tribuo's LibLinear trainer (primal trust-region
 * Newton, {@code L2R_LR}: deterministic) and reads its weights back by feature name, so that a
 * model can be written as plain JSON and explained feature by feature. Also fits the one-feature
 * logistic regression of Platt's calibration.
 */
public final class LinearFit {
  /**
   * Tribuo reports each training at INFO through java.util.logging; Vigil's stderr stays for its
   * own lines.
   */
  private static final Logger TRIBUO = Logger.getLogger("org.tribuo");

  private static final String FAILED = "failed";
  private static final String GOOD = "good";

  /**
   * A constant feature of every example, so that no example is empty; folded into the intercept.
   */
  private static final String ONE = "_one";

  private static final int MAX_ITERATIONS = 1000;
  private static final double EPSILON = 0.01;

  /**
   * The slope, per standard deviation of the margins, of a calibration whose margins carry no
   * evidence.
   */
  static final double FLAT_SLOPE = 0.01;

  static {
    TRIBUO.setLevel(Level.WARNING);
    Linear.disableDebugOutput();
  }

  /**
   * A linear model's parameters.
   *
   * @param weights each feature's weight toward failure
   * @param intercept the intercept
   */
  public record Weights(Map<String, Double> weights, double intercept) {
    /** Copies the map. */
    public Weights {
      weights = Map.copyOf(weights);
    }

    /** The margin {@code intercept + Σ weight * value} of a vector. */
    public double margin(Map<String, Double> x) {
      double m = intercept;
      for (Map.Entry<String, Double> e : x.entrySet()) {
        Double w = weights.get(e.getKey());
        if (w != null) {
          m += w * e.getValue();
        }
      }
      return m;
    }
  }

  private LinearFit() {}

  /** Training sessions as Tribuo's dataset, built once for every cost it is fitted with. */
  public static final class Data {
    private final MutableDataset<Label> data;
    private final long failed;
    private final long good;

    private Data(MutableDataset<Label> data, long failed, long good) {
      this.data = data;
      this.failed = failed;
      this.good = good;
    }
  }

  /**
   * The vectors and their labels as a dataset.
   *
   * @throws IllegalArgumentException when both classes are not present
   */
  public static Data data(List<Map<String, Double>> x, List<Boolean> failed) {
    if (!failed.contains(true) || !failed.contains(false)) {
      throw new IllegalArgumentException("a fit needs sessions of both classes");
    }
    LabelFactory labels = new LabelFactory();
    MutableDataset<Label> data =
        new MutableDataset<>(new SimpleDataSourceProvenance("vigil sessions", labels), labels);
    Label yes = new Label(FAILED);
    Label no = new Label(GOOD);
    for (int i = 0; i < x.size(); i++) {
      Map<String, Double> v = x.get(i);
      String[] names = new String[v.size() + 1];
      double[] values = new double[v.size() + 1];
      int n = 0;
      names[n] = ONE;
      values[n++] = 1.0;
      for (Map.Entry<String, Double> e : v.entrySet()) {
        if (e.getValue() != 0 && Double.isFinite(e.getValue())) {
          names[n] = e.getKey();
          values[n++] = e.getValue();
        }
      }
      data.add(
          new ArrayExample<>(
              failed.get(i) ? yes : no, Arrays.copyOf(names, n), Arrays.copyOf(values, n)));
    }
    long nFailed = failed.stream().filter(b -> b).count();
    return new Data(data, nFailed, failed.size() - nFailed);
  }

  /**
   * Fits the weights that best predict {@code failed} from the vectors, with cost {@code cost} (the
   * inverse of the L2 penalty: smaller is smoother), the two classes weighed as if they were as
   * many.
   *
   * @throws IllegalArgumentException when both classes are not present
   */
  public static Weights fit(List<Map<String, Double>> x, List<Boolean> failed, double cost) {
    return fit(data(x, failed), cost, true);
  }

  /**
   * Fits a dataset with cost {@code cost}; {@code balanced}: the two classes weighed as if they
   * were as many (the margin then carries the features' evidence, not the training base rate, which
   * differs from fold to fold; the calibration puts the base rate back).
   */
  public static Weights fit(Data d, double cost, boolean balanced) {
    LibLinearClassificationTrainer trainer =
        new LibLinearClassificationTrainer(
            new LinearClassificationType(LinearClassificationType.LinearType.L2R_LR),
            cost,
            MAX_ITERATIONS,
            EPSILON);
    if (balanced) {
      long n = d.failed + d.good;
      trainer.setLabelWeights(
          Map.of(
              new Label(FAILED),
              (float) (n / (2.0 * d.failed)),
              new Label(GOOD),
              (float) (n / (2.0 * d.good))));
    }
    LibLinearClassificationModel model = (LibLinearClassificationModel) trainer.train(d.data);
    de.bwaldvogel.liblinear.Model inner = model.getInnerModels().get(0);
    double[] w = inner.getFeatureWeights();
    // the weights are those of the first of liblinear's labels: toward failure when that label is
    // "failed"
    Label first = model.getOutputIDInfo().getOutput(inner.getLabels()[0]);
    double sign = FAILED.equals(first.getLabel()) ? 1 : -1;
    ImmutableFeatureMap features = model.getFeatureIDMap();
    Map<String, Double> out = new HashMap<>();
    double intercept = inner.getBias() >= 0 ? sign * w[inner.getNrFeature()] * inner.getBias() : 0;
    for (var f : features) {
      int id = features.getID(f.getName());
      double v = sign * w[id];
      if (f.getName().equals(ONE)) {
        intercept += v;
      } else if (v != 0) {
        out.put(f.getName(), v);
      }
    }
    return new Weights(out, intercept);
  }

  /**
   * Platt's calibration: the logistic regression of the label on the margin, {@code p = 1 / (1 +
   * e^-(a m + b))}, fitted on out-of-fold margins (weakly regularized, classes as they are). A
   * slope that is not positive (the margins carry no evidence on sessions the model did not see)
   * gives every session about the base rate, in the margins' order (a slope of {@value #FLAT_SLOPE}
   * per standard deviation of the margins).
   */
  public static Calibration platt(double[] margins, boolean[] failed) {
    int n = 0;
    for (boolean f : failed) {
      n += f ? 1 : 0;
    }
    double rate = (double) n / failed.length;
    List<Map<String, Double>> x = new ArrayList<>(margins.length);
    List<Boolean> y = new ArrayList<>(margins.length);
    for (int i = 0; i < margins.length; i++) {
      x.add(Map.of("margin", margins[i]));
      y.add(failed[i]);
    }
    Weights w = fit(data(x, y), 100, false);
    double a = w.weights().getOrDefault("margin", 0.0);
    if (a > 0) {
      return new Calibration(a, w.intercept());
    }
    // no evidence on unseen groups: every session gets about the base rate, the margins' order kept
    // by a slope so
    // small that three standard deviations move the probability by under one percentage point
    double mean = 0;
    for (double m : margins) {
      mean += m / margins.length;
    }
    double var = 0;
    for (double m : margins) {
      var += (m - mean) * (m - mean) / margins.length;
    }
    double slope = var > 0 ? FLAT_SLOPE / Math.sqrt(var) : 0;
    return new Calibration(slope, Math.log(rate / (1 - rate)) - slope * mean);
  }
}
