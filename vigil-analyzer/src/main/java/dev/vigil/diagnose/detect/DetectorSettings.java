package dev.vigil.diagnose.detect;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.dialogue.ToolRoles;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The detectors' tunables, read from the optional {@code detectors} object of the rules file; every
 * field that is absent keeps its default.
 *
 * @param confirmationWords premature_success: a kind whose last segment has a word starting with
 *     one of these is a confirmation ({@code receipt}, {@code ack}, {@code confirm}, {@code
 *     delivered})
 * @param latencyBudgetsMs latency: configured budgets by kind, in milliseconds
 * @param latencyFactor latency: without a configured budget, this many times the kind's median (3)
 * @param latencyMinBudgetMs latency: and at least this many milliseconds (1000)
 * @param maxCallsPerTurn tool_call_explosion: more calls than this in one turn is an explosion (8)
 * @param plateauRun failure_plateau: this many consecutive failures of one kind (3)
 * @param plateauSharedWords failure_plateau: sharing at least this many content words (3)
 * @param dialogue the conversation detectors' word lists and thresholds
 *     (docs/DETECTORS.md#conversation-detectors)
 * @param roles the tool roles, read from the rules file's {@code tool_roles}
 */
public record DetectorSettings(
    List<String> confirmationWords,
    Map<String, Double> latencyBudgetsMs,
    double latencyFactor,
    double latencyMinBudgetMs,
    int maxCallsPerTurn,
    int plateauRun,
    int plateauSharedWords,
    DialogueSettings dialogue,
    ToolRoles roles) {

  /** The defaults (docs/DETECTORS.md). */
  public static final DetectorSettings DEFAULTS =
      new DetectorSettings(
          List.of("receipt", "ack", "confirm", "delivered"),
          Map.of(),
          3.0,
          1000.0,
          8,
          3,
          3,
          DialogueSettings.DEFAULTS,
          ToolRoles.DEFAULTS);

  /**
   * Reads {@code root.detectors}; absent means the defaults.
   *
   * @throws IllegalArgumentException naming {@code source} and the field that is wrong
   */
  public static DetectorSettings parse(JsonNode root, String source) {
    JsonNode d = root.get("detectors");
    ToolRoles roles = ToolRoles.parse(root, source);
    if (d == null) {
      return roles.equals(DEFAULTS.roles)
          ? DEFAULTS
          : new DetectorSettings(
              DEFAULTS.confirmationWords,
              DEFAULTS.latencyBudgetsMs,
              DEFAULTS.latencyFactor,
              DEFAULTS.latencyMinBudgetMs,
              DEFAULTS.maxCallsPerTurn,
              DEFAULTS.plateauRun,
              DEFAULTS.plateauSharedWords,
              DEFAULTS.dialogue,
              roles);
    }
    if (!d.isObject()) {
      throw new IllegalArgumentException(source + ": \"detectors\" must be an object");
    }
    Reader r = new Reader(d, source);
    return new DetectorSettings(
        r.words("premature_success", "confirmation_words", DEFAULTS.confirmationWords),
        r.budgets(),
        r.number("latency", "factor", DEFAULTS.latencyFactor, 1),
        r.number("latency", "min_budget_ms", DEFAULTS.latencyMinBudgetMs, 0),
        (int) r.number("tool_call_explosion", "max_calls", DEFAULTS.maxCallsPerTurn, 1),
        (int) r.number("failure_plateau", "run", DEFAULTS.plateauRun, 2),
        (int) r.number("failure_plateau", "shared_words", DEFAULTS.plateauSharedWords, 1),
        DialogueSettings.parse(d, source),
        roles);
  }

  private record Reader(JsonNode d, String source) {
    double number(String detector, String field, double fallback, double min) {
      JsonNode v = d.path(detector).get(field);
      if (v == null) {
        return fallback;
      }
      if (!v.isNumber() || v.doubleValue() < min) {
        throw new IllegalArgumentException(
            source
                + ": detectors."
                + detector
                + "."
                + field
                + " must be a number of at least "
                + min
                + ", not "
                + v);
      }
      return v.doubleValue();
    }

    List<String> words(String detector, String field, List<String> fallback) {
      JsonNode v = d.path(detector).get(field);
      if (v == null) {
        return fallback;
      }
      if (!v.isArray() || v.isEmpty()) {
        throw new IllegalArgumentException(
            source
                + ": detectors."
                + detector
                + "."
                + field
                + " must be a non-empty array of words, not "
                + v);
      }
      List<String> out = new ArrayList<>();
      v.forEach(w -> out.add(w.asText().toLowerCase(java.util.Locale.ROOT)));
      return List.copyOf(out);
    }

    Map<String, Double> budgets() {
      JsonNode v = d.path("latency").get("budgets_ms");
      if (v == null) {
        return Map.of();
      }
      if (!v.isObject()) {
        throw new IllegalArgumentException(
            source
                + ": detectors.latency.budgets_ms must be an object of kind to "
                + "milliseconds, not "
                + v);
      }
      Map<String, Double> out = new LinkedHashMap<>();
      for (var e : v.properties()) {
        if (!e.getValue().isNumber() || e.getValue().doubleValue() <= 0) {
          throw new IllegalArgumentException(
              source
                  + ": detectors.latency.budgets_ms."
                  + e.getKey()
                  + " must be a positive number of milliseconds, not "
                  + e.getValue());
        }
        out.put(e.getKey(), e.getValue().doubleValue());
      }
      return Map.copyOf(out);
    }
  }
}
