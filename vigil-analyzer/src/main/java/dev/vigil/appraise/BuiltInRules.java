package dev.vigil.appraise;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;

/**
 * The built-in rules file, {@code dev/vigil/appraise/rules.json}: the appraisal table, the RBT
 * thresholds and the detectors' tunables that apply unless {@code --rules} replaces them.
 */
public final class BuiltInRules {
  /** The resource's name. */
  public static final String RESOURCE = "/dev/vigil/appraise/rules.json";

  /** How error messages name it. */
  public static final String SOURCE = "built-in rules";

  private BuiltInRules() {}

  /** The parsed resource. */
  public static JsonNode json() {
    try (InputStream in = BuiltInRules.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException(
            "resource " + RESOURCE + " is missing from the analyzer jar");
      }
      return new ObjectMapper().readTree(in);
    } catch (IOException e) {
      throw new IllegalStateException("built-in rules are unreadable", e);
    }
  }
}
