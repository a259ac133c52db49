package dev.vigil.diagnose;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The alarm's weights and levels (docs/DESIGN.md#the-alarm), read from the rules file's optional
 * {@code alarm} object; every absent field keeps its default.
 *
 * @param weights per source (a detector's name, {@code policy} for every policy rule without a
 *     severity of its own, {@code failed_calls}): the probability that one instance means the
 *     window is unhealthy
 * @param otherWeight a source with no weight of its own (a user's detector)
 * @param watchFrom the score from which the level is {@code watch} (0.3)
 * @param alarmFrom the score from which the level is {@code alarm} (0.6)
 */
public record AlarmSettings(
    Map<String, Double> weights, double otherWeight, double watchFrom, double alarmFrom) {
  /** The source name of failed tool calls. */
  public static final String FAILED_CALLS = "failed_calls";

  /** The defaults, listed in docs/DESIGN.md#the-alarm. */
  public static final AlarmSettings DEFAULTS = new AlarmSettings(defaultWeights(), 0.5, 0.3, 0.6);

  /** Copies the map. */
  public AlarmSettings {
    weights = Map.copyOf(weights);
  }

  private static Map<String, Double> defaultWeights() {
    Map<String, Double> w = new LinkedHashMap<>();
    w.put("premature_success", 0.5);
    w.put("latency", 0.2);
    w.put("timestamp_inconsistent", 0.4);
    w.put("tool_call_explosion", 0.5);
    w.put("failure_plateau", 0.6);
    w.put("unconfirmed_write", 0.35);
    w.put("claim_without_action", 0.6);
    w.put("user_correction", 0.45);
    w.put("write_after_refusal", 0.6);
    w.put("policy", 0.8);
    w.put("judge", 0.6);
    w.put(FAILED_CALLS, 0.1);
    return w;
  }

  /** The weight of one instance of {@code source}. */
  public double weight(String source) {
    Double w = weights.get(source);
    if (w == null && source.startsWith("policy.")) {
      w = weights.get("policy");
    }
    return w != null ? w : otherWeight;
  }

  /** The level of a score. */
  public String level(double score) {
    return score >= alarmFrom ? "alarm" : score >= watchFrom ? "watch" : "ok";
  }

  /**
   * Reads {@code root.alarm}: {@code weights} (source to a number in [0, 1]), {@code other_weight},
   * {@code watch_from}, {@code alarm_from}.
   *
   * @throws IllegalArgumentException naming {@code source} and the field that is wrong
   */
  public static AlarmSettings parse(JsonNode root, String source) {
    JsonNode a = root.get("alarm");
    if (a == null) {
      return DEFAULTS;
    }
    if (!a.isObject()) {
      throw new IllegalArgumentException(source + ": \"alarm\" must be an object");
    }
    Map<String, Double> weights = new LinkedHashMap<>(DEFAULTS.weights);
    JsonNode w = a.get("weights");
    if (w != null) {
      if (!w.isObject()) {
        throw new IllegalArgumentException(
            source + ": alarm.weights must be an object of source to weight");
      }
      for (var e : w.properties()) {
        weights.put(e.getKey(), unit(e.getValue(), source + ": alarm.weights." + e.getKey()));
      }
    }
    double watch =
        a.has("watch_from")
            ? unit(a.get("watch_from"), source + ": alarm.watch_from")
            : DEFAULTS.watchFrom;
    double alarm =
        a.has("alarm_from")
            ? unit(a.get("alarm_from"), source + ": alarm.alarm_from")
            : DEFAULTS.alarmFrom;
    if (watch > alarm) {
      throw new IllegalArgumentException(
          source
              + ": alarm.watch_from ("
              + watch
              + ") must not exceed alarm.alarm_from ("
              + alarm
              + ")");
    }
    double other =
        a.has("other_weight")
            ? unit(a.get("other_weight"), source + ": alarm.other_weight")
            : DEFAULTS.otherWeight;
    return new AlarmSettings(weights, other, watch, alarm);
  }

  private static double unit(JsonNode v, String where) {
    if (v == null || !v.isNumber() || v.doubleValue() < 0 || v.doubleValue() > 1) {
      throw new IllegalArgumentException(where + " must be a number from 0 to 1, not " + v);
    }
    return v.doubleValue();
  }
}
