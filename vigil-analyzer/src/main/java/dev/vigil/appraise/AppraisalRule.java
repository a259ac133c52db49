package dev.vigil.appraise;

import java.util.List;

/**
 * One row of the appraisal table (docs/DESIGN.md#appraisal): a condition on the event and the
 * emotion it gives.
 *
 * @param name the rule's name, used in messages
 * @param statuses statuses that match (lower case); empty: none
 * @param kindContains substrings of the kind that match (lower case); empty: none
 * @param requiresMagnitude whether a positive magnitude m is also required
 * @param emotion the emotion given
 * @param valence its valence
 * @param intensity how intensity is computed
 */
record AppraisalRule(
    String name,
    List<String> statuses,
    List<String> kindContains,
    boolean requiresMagnitude,
    String emotion,
    double valence,
    Intensity intensity) {

  /**
   * How a rule computes intensity before clamping, from the magnitude m, the delay severity d and
   * the severity s the event gives itself.
   */
  public sealed interface Intensity {
    /**
     * Intensity before clamping; {@code d} is {@link Double#NaN} when the event has no usable
     * delay, {@code s} when its payload has no numeric {@code severity}.
     */
    double compute(double m, double d, double s);

    /** A fixed intensity. */
    record Constant(double value) implements Intensity {
      @Override
      public double compute(double m, double d, double s) {
        return value;
      }
    }

    /** {@code max(0.9, d)}: a failure, made at least as severe as its delay. */
    record Failure() implements Intensity {
      /** A failure is at least this intense. */
      static final double FLOOR = 0.9;

      @Override
      public double compute(double m, double d, double s) {
        return Double.isNaN(d) ? FLOOR : Math.max(FLOOR, d);
      }
    }

    /** {@code d} when {@code delayed_by_sec} is a number, else 0.3. */
    record Delay() implements Intensity {
      /** Anxiety from a delay of unknown size. */
      static final double UNKNOWN = 0.3;

      @Override
      public double compute(double m, double d, double s) {
        return Double.isNaN(d) ? UNKNOWN : d;
      }
    }

    /**
     * {@code s}: the severity a derived event carries in {@code payload.severity} (a policy rule's,
     * docs/POLICIES.md), else 0.9, a failure's.
     */
    record Severity() implements Intensity {
      /** Without a given severity: a failure's intensity. */
      static final double UNKNOWN = Failure.FLOOR;

      @Override
      public double compute(double m, double d, double s) {
        return Double.isNaN(s) ? UNKNOWN : s;
      }
    }

    /** {@code max(m, 0.5)}: the pride floor. */
    record Pride() implements Intensity {
      /** Pride never falls below this. */
      static final double FLOOR = 0.5;

      @Override
      public double compute(double m, double d, double s) {
        return Math.max(m, FLOOR);
      }
    }
  }

  /** True when the rule's condition holds for a lower-case kind and status. */
  boolean matches(String kind, String status, double magnitude) {
    boolean unconditional = statuses.isEmpty() && kindContains.isEmpty();
    boolean hit = unconditional || statuses.contains(status) || containsAny(kind);
    return hit && (!requiresMagnitude || magnitude > 0);
  }

  private boolean containsAny(String kind) {
    for (int i = 0, n = kindContains.size();
        i < n;
        i++) { // indexed: no iterator per event and rule
      if (kind.contains(kindContains.get(i))) {
        return true;
      }
    }
    return false;
  }
}
