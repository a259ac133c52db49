package dev.vigil.appraise;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.dialogue.ToolRoles;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The appraisal table and clamp range as data (docs/DESIGN.md#appraisal), read from the {@code
 * clamp} and {@code appraisal} fields of a rules file ({@code dev/vigil/appraise/rules.json} by
 * default, or {@code --rules}).
 *
 * @param rules the rules, tried in order
 * @param clampMin lower bound of intensity
 * @param clampMax upper bound of intensity
 * @param roles the tool roles (the optional {@code tool_roles} object;
 *     docs/DETECTORS.md#tool-roles)
 */
public record AppraisalRules(
    List<AppraisalRule> rules, double clampMin, double clampMax, ToolRoles roles) {

  /** An engine over these rules. */
  public Appraiser newAppraiser() {
    return new Appraiser(rules, roles, clampMin, clampMax);
  }

  /** The built-in table ({@link BuiltInRules}). */
  public static AppraisalRules defaults() {
    return parse(BuiltInRules.json(), BuiltInRules.SOURCE);
  }

  /**
   * Reads the table from a parsed rules file.
   *
   * @param source names the file in error messages
   * @throws IllegalArgumentException naming the source, the rule and what is wrong
   */
  public static AppraisalRules parse(JsonNode root, String source) {
    JsonNode clamp = root.path("clamp");
    double min = number(clamp.get("min"), source + ": clamp.min");
    double max = number(clamp.get("max"), source + ": clamp.max");
    JsonNode table = root.get("appraisal");
    if (table == null || !table.isArray() || table.isEmpty()) {
      throw new IllegalArgumentException(
          source + ": \"appraisal\" must be a non-empty array of rules");
    }
    List<AppraisalRule> rules = new ArrayList<>();
    for (int i = 0; i < table.size(); i++) {
      JsonNode r = table.get(i);
      String where =
          source + ": appraisal rule " + (i + 1) + " (" + r.path("name").asText("unnamed") + ")";
      String emotion = r.path("emotion").asText("");
      if (emotion.isEmpty()) {
        throw new IllegalArgumentException(where + ": \"emotion\" is missing");
      }
      rules.add(
          new AppraisalRule(
              r.path("name").asText("rule " + (i + 1)),
              strings(r.get("status"), where + ": status"),
              strings(r.get("kind_contains"), where + ": kind_contains"),
              r.path("requires_magnitude").asBoolean(false),
              emotion,
              number(r.get("valence"), where + ": valence"),
              intensity(r.get("intensity"), where)));
    }
    AppraisalRule last = rules.get(rules.size() - 1);
    if (!last.statuses().isEmpty() || !last.kindContains().isEmpty() || last.requiresMagnitude()) {
      throw new IllegalArgumentException(
          source
              + ": the last appraisal rule must match every event "
              + "(no status, kind_contains or requires_magnitude)");
    }
    return new AppraisalRules(rules, min, max, ToolRoles.parse(root, source));
  }

  private static AppraisalRule.Intensity intensity(JsonNode v, String where) {
    if (v != null && v.isNumber()) {
      return new AppraisalRule.Intensity.Constant(v.doubleValue());
    }
    String name = v == null ? "" : v.asText();
    return switch (name) {
      case "failure" -> new AppraisalRule.Intensity.Failure();
      case "delay" -> new AppraisalRule.Intensity.Delay();
      case "pride" -> new AppraisalRule.Intensity.Pride();
      case "severity" -> new AppraisalRule.Intensity.Severity();
      default ->
          throw new IllegalArgumentException(
              where
                  + ": intensity "
                  + v
                  + " is not a number or one of failure, delay, pride, severity");
    };
  }

  private static List<String> strings(JsonNode v, String where) {
    if (v == null) {
      return List.of();
    }
    if (!v.isArray()) {
      throw new IllegalArgumentException(where + " must be an array of strings");
    }
    List<String> out = new ArrayList<>();
    v.forEach(s -> out.add(s.asText().toLowerCase(Locale.ROOT)));
    return List.copyOf(out);
  }

  static double number(JsonNode v, String where) {
    if (v == null || !v.isNumber()) {
      throw new IllegalArgumentException(where + " must be a number, not " + v);
    }
    return v.doubleValue();
  }
}
