package dev.vigil.diagnose.policy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.diagnose.detect.Detector;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The policy rules of a rules file (its optional {@code policies} array, docs/POLICIES.md), each
 * compiled when the file is read, so that a rule that does not compile stops Vigil at start; each
 * becomes one detector named {@code policy.<name>}.
 */
public final class Policies {
  /** No policy rules (the built-in rules have none). */
  public static final Policies NONE = new Policies(List.of());

  private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]*");
  private static final Set<String> FIELDS =
      Set.of("name", "tool", "violation", "severity", "description");

  /** The severity of a rule that gives none: a failure's intensity (docs/DESIGN.md#appraisal). */
  static final double DEFAULT_SEVERITY = 0.9;

  private final List<PolicyDetector> detectors;

  private Policies(List<PolicyDetector> detectors) {
    this.detectors = List.copyOf(detectors);
  }

  /**
   * Reads and compiles {@code root.policies}; absent means none.
   *
   * @param source names the rules file in error messages
   * @throws IllegalArgumentException naming the source, the rule (by name and position) and what is
   *     wrong; for an expression that does not compile, the column and CEL's reason
   */
  public static Policies parse(JsonNode root, String source) {
    JsonNode list = root.get("policies");
    if (list == null || list.isNull()) {
      return NONE;
    }
    if (!list.isArray()) {
      throw new IllegalArgumentException(
          source + ": \"policies\" must be an array of rules, not " + list);
    }
    List<PolicyDetector> out = new ArrayList<>();
    Set<String> names = new LinkedHashSet<>();
    for (int i = 0; i < list.size(); i++) {
      JsonNode r = list.get(i);
      String where = source + ": policy " + (i + 1);
      if (!r.isObject()) {
        throw new IllegalArgumentException(
            where + " must be an object with name, tool and violation, not " + r);
      }
      String name = r.path("name").asText("");
      where += name.isEmpty() ? "" : " (" + name + ")";
      for (var field : r.properties()) {
        if (!FIELDS.contains(field.getKey()) && !field.getKey().startsWith("_")) {
          throw new IllegalArgumentException(
              where
                  + ": unknown field \""
                  + field.getKey()
                  + "\"; a policy has "
                  + "name, tool, violation, severity and description");
        }
      }
      if (!NAME.matcher(name).matches()) {
        throw new IllegalArgumentException(
            where
                + ": \"name\" must be lower-case letters, digits and underscores, "
                + "starting with a letter (it becomes the kind policy.<name>), not "
                + r.get("name"));
      }
      if (!names.add(name)) {
        throw new IllegalArgumentException(
            where + ": another policy is already named \"" + name + "\"");
      }
      PolicyRule rule =
          new PolicyRule(
              name,
              text(r, "tool", where),
              text(r, "violation", where),
              severity(r.get("severity"), where),
              r.path("description").asText(""));
      try {
        out.add(new PolicyDetector(rule, PolicyEnvironment.compile(rule.violation())));
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(
            where + ": \"violation\" does not compile at " + e.getMessage(), e);
      }
    }
    return new Policies(out);
  }

  private static String text(JsonNode r, String field, String where) {
    JsonNode v = r.get(field);
    if (v == null || !v.isTextual() || v.asText().isBlank()) {
      throw new IllegalArgumentException(
          where + ": \"" + field + "\" must be a non-empty string, not " + v);
    }
    return v.asText();
  }

  private static double severity(JsonNode v, String where) {
    if (v == null) {
      return DEFAULT_SEVERITY;
    }
    if (!v.isNumber() || v.doubleValue() < 0 || v.doubleValue() > 1) {
      throw new IllegalArgumentException(
          where + ": \"severity\" must be a number from 0 to 1, not " + v);
    }
    return v.doubleValue();
  }

  /** The rules, in the file's order. */
  public List<PolicyRule> rules() {
    return detectors.stream().map(PolicyDetector::rule).toList();
  }

  /** One detector per rule, named {@code policy.<name>}, in the file's order. */
  public List<Detector> detectors() {
    return List.copyOf(detectors);
  }

  /** Whether there are no rules. */
  public boolean isEmpty() {
    return detectors.isEmpty();
  }
}
