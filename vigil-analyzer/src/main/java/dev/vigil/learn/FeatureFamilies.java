package dev.vigil.learn;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Which families of features a model reads (docs/MODEL.md), each switchable in the rules file under
 * {@code model.features}: {@code {"model": {"features": {"user_words": false}}}}. All are on by
 * default.
 *
 * @param answerWords the words of the agent's answers: word 1- and 2-grams, TF-IDF ({@code a:}
 *     features)
 * @param userWords the words of the user's messages, likewise ({@code u:} features)
 * @param toolCalls the tool calls in order: {@code tool:status} tokens, their bigrams and {@code
 *     role:status} tokens ({@code t:}, {@code t2:}, {@code r:} features)
 * @param findings the count of each detector's and policy rule's findings ({@code d:} features)
 * @param counts turns, calls, failed calls, reads, writes and distinct tools ({@code n:} features)
 */
public record FeatureFamilies(
    boolean answerWords, boolean userWords, boolean toolCalls, boolean findings, boolean counts) {
  /** Every family. */
  public static final FeatureFamilies ALL = new FeatureFamilies(true, true, true, true, true);

  /** The families' names, as in the rules file and model.json. */
  public static final List<String> NAMES =
      List.of("answer_words", "user_words", "tool_calls", "findings", "counts");

  /** The names of the families that are on. */
  public List<String> names() {
    List<String> out = new ArrayList<>();
    boolean[] on = {answerWords, userWords, toolCalls, findings, counts};
    for (int i = 0; i < on.length; i++) {
      if (on[i]) {
        out.add(NAMES.get(i));
      }
    }
    return out;
  }

  /** The families named. */
  public static FeatureFamilies of(List<String> names) {
    return new FeatureFamilies(
        names.contains("answer_words"),
        names.contains("user_words"),
        names.contains("tool_calls"),
        names.contains("findings"),
        names.contains("counts"));
  }

  /** The family of a feature name, by its prefix; null for none. */
  public static String familyOf(String feature) {
    int colon = feature.indexOf(':');
    String prefix = colon < 0 ? "" : feature.substring(0, colon);
    return switch (prefix) {
      case "a" -> "answer_words";
      case "u" -> "user_words";
      case "t", "t2", "r" -> "tool_calls";
      case "d" -> "findings";
      case "n" -> "counts";
      default -> null;
    };
  }

  /**
   * Reads the optional {@code model.features} object of a rules file: family name to true or false;
   * absent families stay on.
   *
   * @throws IllegalArgumentException naming the source and the field that is wrong
   */
  public static FeatureFamilies parse(JsonNode root, String source) {
    JsonNode f = root.path("model").get("features");
    if (f == null) {
      return ALL;
    }
    if (!f.isObject()) {
      throw new IllegalArgumentException(
          source + ": model.features must be an object of family to true or false");
    }
    List<String> on = new ArrayList<>(NAMES);
    for (var e : f.properties()) {
      if (!NAMES.contains(e.getKey())) {
        throw new IllegalArgumentException(
            source
                + ": model.features."
                + e.getKey()
                + " is no family; the families"
                + " are "
                + String.join(", ", NAMES));
      }
      if (!e.getValue().isBoolean()) {
        throw new IllegalArgumentException(
            source
                + ": model.features."
                + e.getKey()
                + " must be true or false, not "
                + e.getValue());
      }
      if (!e.getValue().booleanValue()) {
        on.remove(e.getKey());
      }
    }
    return of(on);
  }
}
