package dev.vigil.appraise;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The positive magnitude m of a success (docs/DESIGN.md#appraisal): the first payload field present
 * with a number above 0 among {@code improvement_pct} (p gives {@code 0.3 + min(p,50)/50·0.6}),
 * {@code saved_ms} (s gives {@code 0.3 + min(s,2000)/2000·0.6}) and {@code latency_ms} below a
 * positive {@code baseline_ms} (the first formula on the improvement percentage); otherwise 0,
 * which means no pride.
 *
 * <p>Departs from the public reference implementation on purpose: there {@code improvement_pct ≤ 0}
 * counted as pride; here a field that is not above 0 is passed over.
 */
final class Magnitude {
  /** Floor of every positive magnitude. */
  static final double BASE = 0.3;

  /** Span added on top of the floor at the cap. */
  static final double SPAN = 0.6;

  /** {@code improvement_pct} at or above this gives the full span. */
  static final double PCT_CAP = 50;

  /** {@code saved_ms} at or above this gives the full span. */
  static final double SAVED_MS_CAP = 2000;

  private Magnitude() {}

  /** m for a payload; 0 when no field qualifies. */
  public static double of(JsonNode payload) {
    double pct = positive(payload, "improvement_pct");
    if (pct > 0) {
      return fromPercent(pct);
    }
    double saved = positive(payload, "saved_ms");
    if (saved > 0) {
      return BASE + Math.min(saved, SAVED_MS_CAP) / SAVED_MS_CAP * SPAN;
    }
    double latency = positive(payload, "latency_ms");
    double baseline = positive(payload, "baseline_ms");
    if (latency > 0 && baseline > 0 && latency < baseline) {
      return fromPercent((baseline - latency) / baseline * 100);
    }
    return 0;
  }

  private static double fromPercent(double pct) {
    return BASE + Math.min(pct, PCT_CAP) / PCT_CAP * SPAN;
  }

  /** The field's value when it is a number above 0, else 0. */
  private static double positive(JsonNode payload, String field) {
    JsonNode v = payload.get(field);
    if (v == null || !v.isNumber()) {
      return 0;
    }
    double d = v.doubleValue();
    return d > 0 ? d : 0;
  }
}
