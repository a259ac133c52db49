package dev.vigil.orchestrate.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;

/**
 * The judge's verdict on one turn, read from the model's answer: {@code {"violation": true|false,
 * "rule": "…", "reason": "…"}}.
 *
 * @param violation whether the turn broke the agent's instructions
 * @param rule the instruction it broke, as the model cited it ("" for a clean turn)
 * @param reason the model's reason, one sentence
 */
record Verdict(boolean violation, String rule, String reason) {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** The turn broke {@code rule}. */
  static Verdict violation(String rule, String reason) {
    return new Verdict(true, rule, reason);
  }

  /** The turn broke nothing. */
  static Verdict clean(String reason) {
    return new Verdict(false, "", reason);
  }

  /**
   * Reads the model's answer strictly: one JSON object (a Markdown code fence around it is allowed)
   * whose {@code violation} is a boolean; a violation must cite its {@code rule} and give a {@code
   * reason}, as strings.
   *
   * @return the verdict, or null when the answer is not such an object (the turn is skipped and
   *     counted)
   */
  static Verdict parse(String answer) {
    if (answer == null) {
      return null;
    }
    String s = unfenced(answer.strip());
    if (!s.startsWith("{") || !s.endsWith("}")) {
      return null;
    }
    JsonNode n;
    try {
      n = MAPPER.readTree(s);
    } catch (IOException e) {
      return null;
    }
    JsonNode violation = n.get("violation");
    if (violation == null || !violation.isBoolean()) {
      return null;
    }
    String rule = text(n.get("rule"));
    String reason = text(n.get("reason"));
    if (!violation.booleanValue()) {
      return reason == null && n.hasNonNull("reason") ? null : clean(reason == null ? "" : reason);
    }
    return rule == null || rule.isBlank() || reason == null || reason.isBlank()
        ? null
        : violation(rule.strip(), reason.strip());
  }

  private static String text(JsonNode n) {
    return n != null && n.isTextual() ? n.asText() : null;
  }

  /** The inside of a Markdown code fence ({@code ```json … ```}), or the text as it is. */
  private static String unfenced(String s) {
    if (!s.startsWith("```") || !s.endsWith("```") || s.length() < 6) {
      return s;
    }
    int firstLine = s.indexOf('\n');
    if (firstLine < 0) {
      return s;
    }
    return s.substring(firstLine + 1, s.length() - 3).strip();
  }
}
