package dev.vigil.diagnose.detect;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.dialogue.Claims;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The conversation detectors' word lists and thresholds (docs/DETECTORS.md#conversation-detectors),
 * English by default, each replaceable in the rules file under {@code detectors.<name>.<field>}.
 * Phrases match whole words, case-insensitively.
 *
 * @param affirmatives unconfirmed_write {@code affirmatives}: a user message holding one confirms a
 *     write
 * @param asks unconfirmed_write {@code asks}: an answer holding one asked for confirmation or
 *     proposed an action (so does any answer with a question mark)
 * @param whenNoEarlierAnswer unconfirmed_write {@code when_no_earlier_answer}: a write in a
 *     session's first turn with no confirmation counts too (true)
 * @param claims claim_without_action {@code claims}: a past form stating an action as done, to the
 *     verbs of the write calls that back it ({@code "cancelled": ["cancel"]})
 * @param negations claim_without_action {@code negations}: a claim with one of these before it in
 *     its clause is no claim ({@code not}, {@code will}, {@code once}…)
 * @param corrections user_correction {@code corrections}: phrases that say the agent got it wrong
 *     (aimed at the agent: "that's wrong", not "wrong" alone, which users say of their own slips)
 * @param repeatMinOverlap user_correction {@code repeat_min_overlap}: a user message that shares at
 *     least {@code plateauSharedWords} content words and this Jaccard overlap with an earlier one
 *     of the session repeats it (0.7)
 * @param refusalRun write_after_refusal {@code failures}: this many failed calls of a write tool
 *     right before its success (2)
 */
public record DialogueSettings(
    List<String> affirmatives,
    List<String> asks,
    boolean whenNoEarlierAnswer,
    Map<String, List<String>> claims,
    List<String> negations,
    List<String> corrections,
    double repeatMinOverlap,
    int refusalRun) {

  /** The English defaults. */
  public static final DialogueSettings DEFAULTS =
      new DialogueSettings(
          List.of(
              "yes",
              "yeah",
              "yep",
              "yup",
              "confirm",
              "confirmed",
              "i confirm",
              "go ahead",
              "proceed",
              "do it",
              "please do",
              "sure",
              "ok",
              "okay",
              "correct",
              "that's right",
              "that is right",
              "approved",
              "agreed"),
          List.of(
              "shall i",
              "should i",
              "would you like",
              "do you want",
              "want me to",
              "can you confirm",
              "please confirm",
              "confirm",
              "proceed",
              "go ahead",
              "is that correct",
              "is this correct",
              "are you sure"),
          true,
          Claims.DEFAULTS.forms(),
          List.of(
              "not",
              "no",
              "never",
              "n't",
              "cannot",
              "can't",
              "couldn't",
              "won't",
              "wasn't",
              "isn't",
              "hasn't",
              "haven't",
              "unable",
              "failed",
              "will",
              "would",
              "could",
              "can",
              "should",
              "shall",
              "must",
              "to",
              "if",
              "once",
              "when",
              "before",
              "after",
              "until",
              "unless",
              "be",
              "let",
              "i'll",
              "we'll",
              "going",
              "want",
              "need",
              "please"),
          List.of(
              "that's wrong",
              "that is wrong",
              "this is wrong",
              "that's the wrong",
              "that is the wrong",
              "this is the wrong",
              "it's the wrong",
              "it is the wrong",
              "got it wrong",
              "you're wrong",
              "you are wrong",
              "still wrong",
              "that's incorrect",
              "that is incorrect",
              "you made a mistake",
              "that's a mistake",
              "that is a mistake",
              "not what i asked",
              "not what i wanted",
              "not what i meant",
              "that's not right",
              "that is not right",
              "that's not it",
              "i didn't ask",
              "i did not ask",
              "i said",
              "i told you",
              "you didn't",
              "you did not",
              "didn't work",
              "did not work",
              "doesn't work",
              "not working",
              "still not",
              "why did you",
              "i never asked",
              "undo",
              "complaint",
              "unacceptable",
              "useless",
              "frustrating",
              "terrible"),
          0.7,
          2);

  /** Copies the lists. */
  public DialogueSettings {
    affirmatives = List.copyOf(affirmatives);
    asks = List.copyOf(asks);
    claims = Map.copyOf(claims);
    negations = List.copyOf(negations);
    corrections = List.copyOf(corrections);
  }

  /**
   * Reads the conversation detectors' fields of {@code detectors}; absent fields keep their
   * defaults.
   *
   * @throws IllegalArgumentException naming {@code source} and the field that is wrong
   */
  static DialogueSettings parse(JsonNode d, String source) {
    if (d == null) {
      return DEFAULTS;
    }
    Fields f = new Fields(d, source);
    return new DialogueSettings(
        f.words("unconfirmed_write", "affirmatives", DEFAULTS.affirmatives),
        f.words("unconfirmed_write", "asks", DEFAULTS.asks),
        f.bool("unconfirmed_write", "when_no_earlier_answer", DEFAULTS.whenNoEarlierAnswer),
        f.claims(),
        f.words("claim_without_action", "negations", DEFAULTS.negations),
        f.words("user_correction", "corrections", DEFAULTS.corrections),
        f.number("user_correction", "repeat_min_overlap", DEFAULTS.repeatMinOverlap, 0, 1),
        (int) f.number("write_after_refusal", "failures", DEFAULTS.refusalRun, 1, 1000));
  }

  private record Fields(JsonNode d, String source) {
    private String name(String detector, String field) {
      return source + ": detectors." + detector + "." + field;
    }

    List<String> words(String detector, String field, List<String> fallback) {
      JsonNode v = d.path(detector).get(field);
      if (v == null) {
        return fallback;
      }
      if (!v.isArray() || v.isEmpty()) {
        throw new IllegalArgumentException(
            name(detector, field) + " must be a non-empty array of phrases, not " + v);
      }
      List<String> out = new ArrayList<>();
      v.forEach(w -> out.add(w.asText().toLowerCase(Locale.ROOT).strip()));
      return out;
    }

    boolean bool(String detector, String field, boolean fallback) {
      JsonNode v = d.path(detector).get(field);
      if (v == null) {
        return fallback;
      }
      if (!v.isBoolean()) {
        throw new IllegalArgumentException(
            name(detector, field) + " must be true or false, not " + v);
      }
      return v.booleanValue();
    }

    double number(String detector, String field, double fallback, double min, double max) {
      JsonNode v = d.path(detector).get(field);
      if (v == null) {
        return fallback;
      }
      if (!v.isNumber() || v.doubleValue() < min || v.doubleValue() > max) {
        throw new IllegalArgumentException(
            name(detector, field) + " must be a number from " + min + " to " + max + ", not " + v);
      }
      return v.doubleValue();
    }

    Map<String, List<String>> claims() {
      JsonNode v = d.path("claim_without_action").get("claims");
      if (v == null) {
        return DEFAULTS.claims;
      }
      if (!v.isObject() || v.isEmpty()) {
        throw new IllegalArgumentException(
            name("claim_without_action", "claims")
                + " must be an object of past form to the verbs that back it, not "
                + v);
      }
      Map<String, List<String>> out = new LinkedHashMap<>();
      for (var e : v.properties()) {
        if (!e.getValue().isArray() || e.getValue().isEmpty()) {
          throw new IllegalArgumentException(
              name("claim_without_action", "claims")
                  + "."
                  + e.getKey()
                  + " must be a non-empty array of verbs, not "
                  + e.getValue());
        }
        List<String> verbs = new ArrayList<>();
        e.getValue().forEach(w -> verbs.add(w.asText().toLowerCase(Locale.ROOT)));
        out.put(e.getKey().toLowerCase(Locale.ROOT), verbs);
      }
      return out;
    }
  }
}
