package dev.vigil.diagnose;

import dev.vigil.diagnose.detect.Detection;
import dev.vigil.emobank.Decay;
import dev.vigil.emobank.EmotionRow;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the {@link Diagnosis} of a window (docs/DESIGN.md#roses-buds-and-thorns): the newest 200
 * live rows of the window, each decayed to {@code now} and classified; thorn causes ranked by
 * summed decayed intensity (ties keep first-seen order); prompt rules from the {@link
 * PromptRuleCatalogue}.
 */
public final class RbtDiagnosis {
  /** How many of the window's newest live rows are classified. */
  public static final int MAX_ROWS = 200;

  private final RbtClassifier classifier;
  private final Decay decay;

  /** A diagnosis stage with these thresholds and this decay. */
  public RbtDiagnosis(RbtThresholds thresholds, Decay decay) {
    this.classifier = new RbtClassifier(thresholds);
    this.decay = decay;
  }

  /**
   * Diagnoses the window's live rows.
   *
   * @param windowRows live rows inside the window, oldest first
   */
  public Diagnosis diagnose(List<EmotionRow> windowRows, Instant now) {
    return diagnose(windowRows, now, List.of());
  }

  /**
   * Diagnoses the window's live rows; the detectors' findings add their rules and evidence to
   * {@code prompt_rules_to_add}.
   *
   * @param windowRows live rows inside the window, oldest first
   * @param detections what the pass's detectors found
   */
  public Diagnosis diagnose(List<EmotionRow> windowRows, Instant now, List<Detection> detections) {
    List<EmotionRow> rows =
        windowRows.size() > MAX_ROWS
            ? windowRows.subList(windowRows.size() - MAX_ROWS, windowRows.size())
            : windowRows;
    List<Finding> roses = new ArrayList<>();
    List<Finding> buds = new ArrayList<>();
    List<Finding> thorns = new ArrayList<>();
    Map<String, double[]> byCause = new LinkedHashMap<>();
    for (EmotionRow row : rows) {
      double d = decay.apply(row.intensity(), row.ts(), now);
      Finding f = new Finding(row.ts(), row.emotion(), d, row.valence(), row.cause());
      switch (classifier.classify(row.emotion(), d, row.valence())) {
        case ROSE -> roses.add(f);
        case BUD -> buds.add(f);
        case THORN -> {
          thorns.add(f);
          double[] acc = byCause.computeIfAbsent(row.cause(), c -> new double[2]);
          acc[0] += d;
          acc[1]++;
        }
        case NONE -> {}
      }
    }
    List<ThornCause> top = new ArrayList<>();
    byCause.forEach((cause, acc) -> top.add(new ThornCause(cause, acc[0], (int) acc[1])));
    top.sort((a, b) -> Double.compare(b.intensity(), a.intensity()));
    return new Diagnosis(
        roses,
        buds,
        thorns,
        top,
        PromptRuleCatalogue.rulesFor(top, detections),
        rows.size(),
        false);
  }
}
