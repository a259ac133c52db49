package dev.vigil.learn;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A fitted, calibrated model of session failure (docs/MODEL.md): the features, a weight per feature
 * and an intercept, Platt's calibration, the levels' thresholds on the probability, and a summary
 * of its training data. Written as {@code model.json} by {@code fit} and read by {@code --model}; a
 * model written and read back scores identically.
 */
public final class SessionModel {
  /** The format of model.json this Vigil writes and reads. */
  public static final int FORMAT_VERSION = 1;

  /** How many hex digits of a session key's SHA-256 the training summary keeps. */
  static final int HASH_DIGITS = 16;

  /** How many contributions a score keeps. */
  static final int TOP = 5;

  /**
   * The levels of a probability: {@code watch} from {@code watch}, {@code alarm} from {@code
   * alarm}.
   *
   * @param watch the lowest probability of {@code watch}
   * @param alarm the lowest probability of {@code alarm}
   */
  public record Levels(double watch, double alarm) {
    /** The defaults: a session more likely failed than not is an alarm, one in three a watch. */
    public static final Levels DEFAULTS = new Levels(0.35, 0.5);

    /** The level of a probability. */
    public String of(double p) {
      return p >= alarm ? "alarm" : p >= watch ? "watch" : "ok";
    }
  }

  /**
   * What the model was fitted on.
   *
   * @param sessions how many sessions
   * @param failed of those, failed
   * @param groups how many groups
   * @param cost the LibLinear cost chosen (inverse of the L2 penalty)
   * @param hashes the first 16 hex digits of the SHA-256 of each training session's key, sorted,
   *     joined
   */
  public record Training(int sessions, int failed, int groups, double cost, String hashes) {
    /** The summary of these training sessions. */
    public static Training of(List<String> sessionKeys, int failed, int groups, double cost) {
      StringBuilder joined = new StringBuilder(sessionKeys.size() * HASH_DIGITS);
      sessionKeys.stream().map(SessionModel::hash).sorted().distinct().forEach(joined::append);
      return new Training(sessionKeys.size(), failed, groups, cost, joined.toString());
    }

    /** Whether the hash is among the training sessions': a binary search of the sorted hashes. */
    boolean holds(String hash) {
      int lo = 0;
      int hi = hashes.length() / HASH_DIGITS - 1;
      while (lo <= hi) {
        int mid = (lo + hi) >>> 1;
        int c = hashes.substring(mid * HASH_DIGITS, (mid + 1) * HASH_DIGITS).compareTo(hash);
        if (c == 0) {
          return true;
        }
        if (c < 0) {
          lo = mid + 1;
        } else {
          hi = mid - 1;
        }
      }
      return false;
    }
  }

  /**
   * Contributions, the largest part first, then by feature (a class, not a lambda: scoring runs
   * mostly cold).
   */
  private static final Comparator<SessionRisk.Contribution> STRONGEST_FIRST =
      new Comparator<>() {
        @Override
        public int compare(SessionRisk.Contribution x, SessionRisk.Contribution y) {
          int c = Double.compare(y.part(), x.part());
          return c != 0 ? c : x.feature().compareTo(y.feature());
        }
      };

  private final FeatureSpace space;
  private final LinearFit.Weights weights;
  private final Calibration calibration;
  private final Levels levels;
  private final Training training;
  private final String vigilVersion;

  /** A model of these parts. */
  public SessionModel(
      FeatureSpace space,
      LinearFit.Weights weights,
      Calibration calibration,
      Levels levels,
      Training training,
      String vigilVersion) {
    this.space = space;
    this.weights = weights;
    this.calibration = calibration;
    this.levels = levels;
    this.training = training;
    this.vigilVersion = vigilVersion;
  }

  /** The features. */
  public FeatureSpace space() {
    return space;
  }

  /** The weights and intercept. */
  public LinearFit.Weights weights() {
    return weights;
  }

  /** The levels. */
  public Levels levels() {
    return levels;
  }

  /** The training summary. */
  public Training training() {
    return training;
  }

  /** Whether a session of this key was among the training sessions. */
  public boolean trainedOn(String session) {
    return training.holds(hash(session));
  }

  /** The first 16 hex digits of the SHA-256 of a session's key. */
  public static String hash(String session) {
    try {
      byte[] d =
          MessageDigest.getInstance("SHA-256").digest(session.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JDK", e);
    }
  }

  /** Scores one session. */
  public SessionRisk score(Observations o) {
    Map<String, Double> x = space.vector(o);
    double p = calibration.probability(weights.margin(x));
    List<SessionRisk.Contribution> parts = new ArrayList<>();
    for (Map.Entry<String, Double> e : x.entrySet()) {
      Double w = weights.weights().get(e.getKey());
      if (w != null && w * e.getValue() > 0) {
        parts.add(
            new SessionRisk.Contribution(
                e.getKey(),
                FeatureFamilies.familyOf(e.getKey()),
                o.counts().getOrDefault(e.getKey(), 0),
                e.getValue(),
                w,
                o.sources(e.getKey())));
      }
    }
    parts.sort(STRONGEST_FIRST);
    return new SessionRisk(o.session(), p, parts.subList(0, Math.min(TOP, parts.size())));
  }

  /** model.json. */
  public ObjectNode toJson() {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("format_version", FORMAT_VERSION)
        .put("vigil_version", vigilVersion)
        .put(
            "model",
            "L2-regularized logistic regression (Tribuo LibLinear L2R_LR), Platt-calibrated");
    n.set("features", space.toJson());
    ObjectNode w = n.putObject("weights");
    w.put("intercept", weights.intercept());
    ObjectNode byFeature = w.putObject("by_feature");
    for (String f : space.names()) {
      Double v = weights.weights().get(f);
      if (v != null) {
        byFeature.put(f, v);
      }
    }
    n.putObject("calibration")
        .put("method", "platt")
        .put("a", calibration.a())
        .put("b", calibration.b());
    n.putObject("levels").put("watch", levels.watch()).put("alarm", levels.alarm());
    ObjectNode t = n.putObject("training");
    t.put("sessions", training.sessions())
        .put("failed", training.failed())
        .put("groups", training.groups())
        .put("cost", training.cost())
        .put(
            "session_hash",
            "first 16 hex digits of SHA-256 of the session key, sorted, one string with no separator");
    t.put("session_hashes", training.hashes());
    return n;
  }

  /** Writes model.json. */
  public void write(Path file) throws IOException {
    Files.writeString(
        file,
        new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(toJson()) + "\n");
  }

  /**
   * Reads a model file.
   *
   * @param families the families the current rules define: a model reading another is refused
   * @param findings the detectors and policy rules the current rules run: a model reading another's
   *     findings is refused
   * @throws IllegalArgumentException naming the file and what is wrong
   */
  public static SessionModel read(Path file, FeatureFamilies families, Set<String> findings) {
    SessionModel m = load(file);
    m.check(file, families, findings);
    return m;
  }

  /**
   * Reads a model file, without checking it against the rules ({@link #check}).
   *
   * @throws IllegalArgumentException naming the file and what is wrong
   */
  public static SessionModel load(Path file) {
    String where = "model file " + file;
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException(where + " does not exist");
    }
    JsonNode n;
    try {
      n = new ObjectMapper().readTree(file.toFile());
    } catch (IOException e) {
      throw new IllegalArgumentException(
          where + " is damaged: not JSON (" + firstLine(e.getMessage()) + ")", e);
    }
    if (n == null || !n.isObject() || !n.path("format_version").isInt()) {
      throw new IllegalArgumentException(
          where + " is damaged: no format_version; is it a model.json written by fit?");
    }
    if (n.get("format_version").intValue() != FORMAT_VERSION) {
      throw new IllegalArgumentException(
          where
              + " is of format version "
              + n.get("format_version").intValue()
              + "; this Vigil reads version "
              + FORMAT_VERSION
              + ": fit the model again");
    }
    try {
      return parse(n);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(where + " is damaged: " + e.getMessage(), e);
    }
  }

  /**
   * Checks that the current rules define what the model reads.
   *
   * @param file the model's file, named in the message
   * @param families the families the current rules define: a model reading another is refused
   * @param findings the detectors and policy rules the current rules run: a model reading another's
   *     findings is refused
   * @throws IllegalArgumentException naming the file and the families or findings the rules lack
   */
  public void check(Path file, FeatureFamilies families, Set<String> findings) {
    String where = "model file " + file;
    List<String> missing = new ArrayList<>(space.families().names());
    missing.removeAll(families.names());
    if (!missing.isEmpty()) {
      throw new IllegalArgumentException(
          where + " was fitted with feature families the current rules switch off: " + missing);
    }
    Set<String> unknown = new TreeSet<>();
    for (String f : weights.weights().keySet()) {
      if (f.startsWith("d:") && !findings.contains(f.substring(2))) {
        unknown.add(f.substring(2));
      }
    }
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException(
          where
              + " was fitted with findings of detectors or policy rules the current "
              + "rules do not define: "
              + unknown
              + " (pass the rules file it was fitted with)");
    }
  }

  private static SessionModel parse(JsonNode n) {
    FeatureSpace space = FeatureSpace.fromJson(n.path("features"));
    JsonNode w = n.path("weights");
    if (!w.path("intercept").isNumber() || !w.path("by_feature").isObject()) {
      throw new IllegalArgumentException("weights must hold intercept and by_feature");
    }
    Map<String, Double> weights = new LinkedHashMap<>();
    for (var e : w.get("by_feature").properties()) {
      if (!e.getValue().isNumber() || !space.has(e.getKey())) {
        throw new IllegalArgumentException(
            "weights.by_feature." + e.getKey() + " is no number of a feature");
      }
      weights.put(e.getKey(), e.getValue().doubleValue());
    }
    JsonNode c = n.path("calibration");
    JsonNode l = n.path("levels");
    JsonNode t = n.path("training");
    if (!c.path("a").isNumber() || !c.path("b").isNumber()) {
      throw new IllegalArgumentException("calibration must hold a and b");
    }
    if (!l.path("watch").isNumber() || !l.path("alarm").isNumber()) {
      throw new IllegalArgumentException("levels must hold watch and alarm");
    }
    String joined = t.path("session_hashes").asText(null);
    if (joined == null || joined.length() % HASH_DIGITS != 0) {
      throw new IllegalArgumentException(
          "training.session_hashes must be one string of 16-digit hashes");
    }
    return new SessionModel(
        space,
        new LinearFit.Weights(weights, w.get("intercept").doubleValue()),
        new Calibration(c.get("a").doubleValue(), c.get("b").doubleValue()),
        new Levels(l.get("watch").doubleValue(), l.get("alarm").doubleValue()),
        new Training(
            t.path("sessions").asInt(),
            t.path("failed").asInt(),
            t.path("groups").asInt(),
            t.path("cost").asDouble(),
            joined),
        n.path("vigil_version").asText(""));
  }

  private static String firstLine(String s) {
    return s == null ? "" : s.lines().findFirst().orElse("");
  }
}
