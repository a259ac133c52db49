package dev.vigil.learn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The features a model reads, fitted on its training sessions only (docs/MODEL.md): the vocabulary
 * (every token seen in at least {@code minDf} training sessions, at most {@value #MAX_TERMS}, the
 * most frequent first) and how each value is scaled. Words ({@code a:}, {@code u:}) are TF-IDF:
 * {@code (1 + ln tf) * idf} with {@code idf = ln((1 + n) / (1 + df)) + 1}, the session's vector of
 * each of the two families then scaled to unit length; every other token is {@code ln(1 + count)}.
 */
public final class FeatureSpace {
  /** The most tokens a vocabulary keeps. */
  static final int MAX_TERMS = 50_000;

  private final FeatureFamilies families;
  private final int minDf;
  private final Map<String, Double> idf;

  private FeatureSpace(FeatureFamilies families, int minDf, Map<String, Double> idf) {
    this.families = families;
    this.minDf = minDf;
    this.idf = idf;
  }

  /** The vocabulary of the training sessions. */
  public static FeatureSpace fit(List<Observations> training, FeatureFamilies families) {
    Map<String, Integer> df = new HashMap<>();
    for (Observations o : training) {
      o.counts().keySet().forEach(t -> df.merge(t, 1, Integer::sum));
    }
    int minDf = training.size() >= 50 ? 2 : 1;
    List<Map.Entry<String, Integer>> kept = new ArrayList<>();
    df.entrySet().stream()
        .filter(e -> e.getValue() >= minDf || e.getKey().startsWith("n:"))
        .forEach(kept::add);
    kept.sort(
        Comparator.<Map.Entry<String, Integer>>comparingInt(Map.Entry::getValue)
            .reversed()
            .thenComparing(Map.Entry::getKey));
    Map<String, Double> idf = new LinkedHashMap<>();
    int n = training.size();
    for (Map.Entry<String, Integer> e : kept.subList(0, Math.min(MAX_TERMS, kept.size()))) {
      idf.put(
          e.getKey(), isWord(e.getKey()) ? Math.log((1.0 + n) / (1.0 + e.getValue())) + 1 : 1.0);
    }
    return new FeatureSpace(families, minDf, idf);
  }

  private static boolean isWord(String token) {
    return token.startsWith("a:") || token.startsWith("u:");
  }

  /** The families it reads. */
  public FeatureFamilies families() {
    return families;
  }

  /** How many features it has. */
  public int size() {
    return idf.size();
  }

  /** Whether the vocabulary holds a feature. */
  boolean has(String feature) {
    return idf.containsKey(feature);
  }

  /** The vocabulary, most frequent first. */
  public List<String> names() {
    return List.copyOf(idf.keySet());
  }

  /** A session's feature values, by name; tokens outside the vocabulary are left out. */
  public Map<String, Double> vector(Observations o) {
    Map<String, Double> v = new LinkedHashMap<>();
    double answer = 0;
    double user = 0;
    for (Map.Entry<String, Integer> e : o.counts().entrySet()) {
      Double w = idf.get(e.getKey());
      if (w == null || e.getValue() <= 0) {
        continue;
      }
      String t = e.getKey();
      double x = isWord(t) ? (1 + Math.log(e.getValue())) * w : Math.log1p(e.getValue());
      v.put(t, x);
      if (t.startsWith("a:")) {
        answer += x * x;
      } else if (t.startsWith("u:")) {
        user += x * x;
      }
    }
    double an = Math.sqrt(answer);
    double un = Math.sqrt(user);
    for (Map.Entry<String, Double> e : v.entrySet()) {
      String t = e.getKey();
      if (t.startsWith("a:")) {
        e.setValue(e.getValue() / an);
      } else if (t.startsWith("u:")) {
        e.setValue(e.getValue() / un);
      }
    }
    return v;
  }

  /** {@code {families, min_df, scaling, vocabulary: [{feature, idf}]}}. */
  ObjectNode toJson() {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    ArrayNode f = n.putArray("families");
    families.names().forEach(f::add);
    n.put("ngram_range", "1-2")
        .put("min_df", minDf)
        .put("max_terms", MAX_TERMS)
        .put(
            "scaling",
            "words: (1 + ln tf) * idf, idf = ln((1 + n) / (1 + df)) + 1, unit length per family; "
                + "other tokens: ln(1 + count)");
    ArrayNode vocab = n.putArray("vocabulary");
    idf.forEach((t, w) -> vocab.addObject().put("feature", t).put("idf", w));
    return n;
  }

  /**
   * Reads {@link #toJson}.
   *
   * @throws IllegalArgumentException saying what is wrong
   */
  static FeatureSpace fromJson(JsonNode n) {
    JsonNode fams = n.path("families");
    JsonNode vocab = n.path("vocabulary");
    if (!fams.isArray() || !vocab.isArray() || !n.path("min_df").isInt()) {
      throw new IllegalArgumentException("features must hold families, min_df and vocabulary");
    }
    List<String> names = new ArrayList<>();
    for (JsonNode f : fams) {
      if (!FeatureFamilies.NAMES.contains(f.asText())) {
        throw new IllegalArgumentException("features.families: " + f + " is no feature family");
      }
      names.add(f.asText());
    }
    Map<String, Double> idf = new LinkedHashMap<>();
    for (JsonNode t : vocab) {
      String feature = t.path("feature").asText(null);
      if (feature == null
          || !t.path("idf").isNumber()
          || FeatureFamilies.familyOf(feature) == null) {
        throw new IllegalArgumentException(
            "features.vocabulary: " + t + " is no feature with an idf");
      }
      idf.put(feature, t.get("idf").doubleValue());
    }
    return new FeatureSpace(FeatureFamilies.of(names), n.get("min_df").intValue(), idf);
  }
}
