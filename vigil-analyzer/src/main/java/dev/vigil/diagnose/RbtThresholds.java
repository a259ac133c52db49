package dev.vigil.diagnose;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.appraise.BuiltInRules;
import java.util.HashSet;
import java.util.Set;

/**
 * The RBT thresholds (docs/DESIGN.md#roses-buds-and-thorns, the paper's section 3.4), read from the
 * {@code rbt} field of the rules file.
 *
 * @param positiveEmotions emotions that can be roses or buds
 * @param thornEmotions emotions that can be thorns
 * @param roseMinIntensity a positive emotion at or above this decayed intensity is a rose (0.5)
 * @param budMinValence a positive emotion at or above this valence is a bud (0.2)
 * @param budCuriosityMinIntensity curiosity at or above this decayed intensity is a bud (0.3)
 * @param thornMinIntensity a thorn emotion at or above this decayed intensity is a thorn (0.4)
 */
public record RbtThresholds(
    Set<String> positiveEmotions,
    Set<String> thornEmotions,
    double roseMinIntensity,
    double budMinValence,
    double budCuriosityMinIntensity,
    double thornMinIntensity) {

  /**
   * Whether a row of this emotion, intensity and valence is a thorn, by the first rule of {@code
   * RbtClassifier}.
   */
  public boolean isThorn(String emotion, double intensity, double valence) {
    return new RbtClassifier(this).classify(emotion, intensity, valence) == RbtClass.THORN;
  }

  /** The built-in thresholds ({@link BuiltInRules}). */
  public static RbtThresholds defaults() {
    return parse(BuiltInRules.json(), BuiltInRules.SOURCE);
  }

  /** Reads the thresholds; {@code source} names the file in error messages. */
  public static RbtThresholds parse(JsonNode root, String source) {
    JsonNode rbt = root.get("rbt");
    if (rbt == null || !rbt.isObject()) {
      throw new IllegalArgumentException(source + ": \"rbt\" must be an object of thresholds");
    }
    return new RbtThresholds(
        strings(rbt.get("positive_emotions"), source + ": rbt.positive_emotions"),
        strings(rbt.get("thorn_emotions"), source + ": rbt.thorn_emotions"),
        number(rbt, "rose_min_intensity", source),
        number(rbt, "bud_min_valence", source),
        number(rbt, "bud_curiosity_min_intensity", source),
        number(rbt, "thorn_min_intensity", source));
  }

  private static Set<String> strings(JsonNode v, String where) {
    if (v == null || !v.isArray()) {
      throw new IllegalArgumentException(where + " must be an array of emotion names");
    }
    Set<String> out = new HashSet<>();
    v.forEach(s -> out.add(s.asText()));
    return Set.copyOf(out);
  }

  private static double number(JsonNode rbt, String field, String source) {
    JsonNode v = rbt.get(field);
    if (v == null || !v.isNumber()) {
      throw new IllegalArgumentException(source + ": rbt." + field + " must be a number, not " + v);
    }
    return v.doubleValue();
  }
}
