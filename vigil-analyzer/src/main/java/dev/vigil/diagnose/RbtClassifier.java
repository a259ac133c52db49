package dev.vigil.diagnose;

/**
 * Classifies one row by its decayed intensity I and valence v
 * (docs/DESIGN.md#roses-buds-and-thorns); the first rule that holds wins: rose if a positive
 * emotion and {@code I ≥ 0.5}; bud if (a positive emotion and {@code v ≥ 0.2}) or (curiosity and
 * {@code I ≥ 0.3}); thorn if frustration or anxiety and {@code I ≥ 0.4}.
 */
final class RbtClassifier {
  private final RbtThresholds t;

  /** A classifier with the given thresholds. */
  public RbtClassifier(RbtThresholds thresholds) {
    this.t = thresholds;
  }

  /** The class of a row with this emotion, decayed intensity and valence. */
  public RbtClass classify(String emotion, double decayedIntensity, double valence) {
    boolean positive = t.positiveEmotions().contains(emotion);
    if (positive && decayedIntensity >= t.roseMinIntensity()) {
      return RbtClass.ROSE;
    }
    if ((positive && valence >= t.budMinValence())
        || ("curiosity".equals(emotion) && decayedIntensity >= t.budCuriosityMinIntensity())) {
      return RbtClass.BUD;
    }
    if (t.thornEmotions().contains(emotion) && decayedIntensity >= t.thornMinIntensity()) {
      return RbtClass.THORN;
    }
    return RbtClass.NONE;
  }
}
