package dev.vigil.orchestrate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.appraise.AppraisalRules;
import dev.vigil.appraise.BuiltInRules;
import dev.vigil.diagnose.detect.DetectorSettings;
import dev.vigil.diagnose.AlarmSettings;
import dev.vigil.diagnose.RbtThresholds;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The rules file: the appraisal table, the RBT thresholds and the detectors' tunables, as data. The default is {@link BuiltInRules}; {@code --rules FILE} replaces it whole.
 *
 * @param appraisal the appraisal table
 * @param rbt       the RBT thresholds
 * @param detectors the detectors' tunables (the optional {@code detectors} object; absent fields keep defaults)
 * @param alarm     the alarm's weights and levels (the optional {@code alarm} object; absent fields keep defaults)
 * @param source    where the rules came from
 */
public record Rules(AppraisalRules appraisal, RbtThresholds rbt, DetectorSettings detectors, AlarmSettings alarm,
    String source) {
  /** The built-in rules ({@link BuiltInRules}). */
  public static Rules defaults() {
    return parse(BuiltInRules.json(), BuiltInRules.SOURCE);
  }

  /**
   * Reads a rules file.
   *
   * @throws IllegalArgumentException naming the file and what is wrong
   */
  public static Rules load(Path file) {
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException("rules file " + file + " does not exist");
    }
    JsonNode root;
    try {
      root = new ObjectMapper().readTree(file.toFile());
    } catch (IOException e) {
      throw new IllegalArgumentException("rules file " + file + " is not valid JSON: " + e.getMessage(), e);
    }
    return parse(root, "rules file " + file);
  }

  private static Rules parse(JsonNode root, String source) {
    return new Rules(AppraisalRules.parse(root, source), RbtThresholds.parse(root, source),
        DetectorSettings.parse(root, source), AlarmSettings.parse(root, source), source);
  }
}
