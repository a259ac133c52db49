package dev.vigil.learn;

import java.util.List;

/**
 * A session's score under a model: its calibrated probability of failure and the features that
 * moved it most.
 *
 * @param session the session's key
 * @param probability the calibrated probability that the session failed
 * @param contributions the features with the largest {@code weight * value} toward failure,
 *     strongest first
 */
public record SessionRisk(String session, double probability, List<Contribution> contributions) {
  /**
   * One feature's part in a score.
   *
   * @param feature the feature ({@code a:has been cancelled}, {@code t:refund_order:fail})
   * @param family its family ({@code answer_words}…)
   * @param count how often its token occurred in the session
   * @param value its value after scaling
   * @param weight its weight in the model
   * @param sources where it occurred: the turns and event refs, the first few
   */
  public record Contribution(
      String feature,
      String family,
      int count,
      double value,
      double weight,
      List<Observations.Source> sources) {
    /** Copies the list. */
    public Contribution {
      sources = List.copyOf(sources);
    }

    /** {@code weight * value}: what it added to the margin. */
    public double part() {
      return weight * value;
    }

    /**
     * The feature for people: {@code answer words "has been cancelled"}, {@code tool call
     * refund_order:fail}.
     */
    public String describe() {
      String token = feature.substring(feature.indexOf(':') + 1);
      return switch (feature.substring(0, feature.indexOf(':'))) {
        case "a" -> "the agent's answer says \"" + token + "\"";
        case "u" -> "the user's message says \"" + token + "\"";
        case "t" -> "tool call " + token;
        case "t2" -> "tool call sequence " + token.replace(">", " then ");
        case "r" -> "a " + token.replace(":", " call ending ");
        case "d" -> "finding of " + token;
        default -> "count " + token + " = " + count;
      };
    }
  }

  /** Copies the list. */
  public SessionRisk {
    contributions = List.copyOf(contributions);
  }
}
