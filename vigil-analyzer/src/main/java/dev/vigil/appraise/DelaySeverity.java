package dev.vigil.appraise;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The delay severity d (docs/DESIGN.md#appraisal): {@code min(max(delayed_by_sec/600, 0), 1)} when
 * {@code payload.delayed_by_sec} is a number, so ten minutes late is 1.0. A value that is present
 * but not a number is ignored: {@link #of} returns {@link Double#NaN} for "absent" and {@link
 * #INVALID} for "present but unusable", so that the caller can count it.
 */
final class DelaySeverity {
  /** Seconds of delay that give full severity. */
  static final double FULL_SEVERITY_SEC = 600;

  /** Returned when {@code delayed_by_sec} is present but not a number. */
  public static final double INVALID = -1;

  private DelaySeverity() {}

  /** d in [0, 1]; {@link Double#NaN} when absent; {@link #INVALID} when not a number. */
  public static double of(JsonNode payload) {
    JsonNode v = payload.get("delayed_by_sec");
    if (v == null || v.isNull()) {
      return Double.NaN;
    }
    if (!v.isNumber()) {
      return INVALID;
    }
    return Math.min(Math.max(v.doubleValue() / FULL_SEVERITY_SEC, 0), 1);
  }
}
