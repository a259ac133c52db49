package dev.vigil.orchestrate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.appraise.AppraisalRules;
import dev.vigil.appraise.BuiltInRules;
import dev.vigil.diagnose.AlarmSettings;
import dev.vigil.diagnose.RbtThresholds;
import dev.vigil.diagnose.detect.DetectorSettings;
import dev.vigil.diagnose.policy.Policies;
import dev.vigil.learn.FeatureFamilies;
import dev.vigil.learn.SessionModel;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules file: the appraisal table, the RBT thresholds, the detectors' tunables and the policy
 * rules, as data. The default is {@link BuiltInRules}; {@code --rules FILE} replaces the sections
 * the file holds (top-level fields: {@link #SECTIONS}) and every section it leaves out keeps its
 * default, so {@code {"policies":[…]}} alone adds policies to the built-in rules.
 *
 * @param appraisal the appraisal table
 * @param rbt the RBT thresholds
 * @param detectors the detectors' tunables (the optional {@code detectors} object; absent fields
 *     keep defaults)
 * @param alarm the alarm's weights and levels (the optional {@code alarm} object; absent fields
 *     keep defaults)
 * @param policies the policy rules, compiled (the optional {@code policies} array;
 *     docs/POLICIES.md)
 * @param source where the rules came from
 * @param features the feature families a model reads (the optional {@code model.features} object)
 * @param model the model that scores each session ({@code --model}), or null: the alarm is the
 *     rules' alone
 */
public record Rules(
    AppraisalRules appraisal,
    RbtThresholds rbt,
    DetectorSettings detectors,
    AlarmSettings alarm,
    Policies policies,
    String source,
    FeatureFamilies features,
    SessionModel model) {
  /** The top-level sections a rules file may hold. */
  public static final List<String> SECTIONS =
      List.of("clamp", "appraisal", "rbt", "tool_roles", "detectors", "alarm", "policies", "model");

  /** The built-in rules ({@link BuiltInRules}). */
  public static Rules defaults() {
    return parse(BuiltInRules.json(), BuiltInRules.SOURCE);
  }

  /**
   * Reads a rules file; the sections it leaves out keep the built-in ones.
   *
   * @throws IllegalArgumentException naming the file and what is wrong (a policy that does not
   *     compile: its name and the column)
   */
  public static Rules load(Path file) {
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("rules file " + file + " does not exist");
    }
    JsonNode root;
    try {
      root = new ObjectMapper().readTree(file.toFile());
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "rules file " + file + " is not valid JSON: " + e.getMessage(), e);
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException(
          "rules file "
              + file
              + " must hold a JSON object with any of the sections "
              + String.join(", ", SECTIONS));
    }
    List<String> unknown = new ArrayList<>();
    root.fieldNames()
        .forEachRemaining(
            f -> {
              if (!SECTIONS.contains(f) && !f.startsWith("_")) {
                unknown.add(f);
              }
            });
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException(
          "rules file "
              + file
              + ": unknown section(s) "
              + unknown
              + "; the sections are "
              + String.join(", ", SECTIONS)
              + " (a field starting with _ is a comment)");
    }
    ObjectNode merged = (ObjectNode) BuiltInRules.json();
    root.properties().forEach(section -> merged.set(section.getKey(), section.getValue()));
    return parse(merged, "rules file " + file);
  }

  private static Rules parse(JsonNode root, String source) {
    return new Rules(
        AppraisalRules.parse(root, source),
        RbtThresholds.parse(root, source),
        DetectorSettings.parse(root, source),
        AlarmSettings.parse(root, source),
        Policies.parse(root, source),
        source,
        FeatureFamilies.parse(root, source),
        null);
  }

  /** These rules with a model scoring each session (null: none). */
  public Rules withModel(SessionModel m) {
    return new Rules(appraisal, rbt, detectors, alarm, policies, source, features, m);
  }
}
