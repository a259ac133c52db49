package dev.vigil.learn;

/**
 * Platt's calibration of a margin into a probability of failure: {@code p = 1 / (1 + e^-(a * margin
 * + b))}.
 *
 * @param a the slope
 * @param b the offset
 */
public record Calibration(double a, double b) {
  /** The margin unchanged through the logistic function. */
  public static final Calibration IDENTITY = new Calibration(1, 0);

  /** The calibrated probability of failure of a margin. */
  public double probability(double margin) {
    return 1 / (1 + Math.exp(-(a * margin + b)));
  }
}
