package dev.vigil.orchestrate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.appraise.AppraisalRules;
import dev.vigil.diagnose.detect.DetectorSettings;
import dev.vigil.diagnose.RbtThresholds;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The rules file: the appraisal table, the RBT thresholds and the detectors' tunables, as data. The default is the resource
 * {@code dev/vigil/appraise/rules.json}; {@code --rules FILE} replaces it whole.
 *
 * @param appraisal the appraisal table
 * @param rbt       the RBT thresholds
 * @param detectors the detectors' tunables (the optional {@code detectors} object; absent fields keep defaults)
 * @param source    where the rules came from
 */
public record Rules(AppraisalRules appraisal, RbtThresholds rbt, DetectorSettings detectors, String source) {
  /** The built-in rules' resource name. */
  public static final String DEFAULT_RESOURCE = "/dev/vigil/appraise/rules.json";

  /** The built-in rules. */
  public static Rules defaults() {
    try (InputStream in = Rules.class.getResourceAsStream(DEFAULT_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("resource " + DEFAULT_RESOURCE + " is missing from the analyzer jar");
      }
      return parse(new ObjectMapper().readTree(in), "built-in rules");
    } catch (IOException e) {
      throw new IllegalStateException("built-in rules are unreadable", e);
    }
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
        DetectorSettings.parse(root, source), source);
  }
}
