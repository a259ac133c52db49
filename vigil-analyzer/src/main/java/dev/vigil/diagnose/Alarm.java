package dev.vigil.diagnose;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * The alarm (docs/DESIGN.md#the-alarm): one number in [0, 1] that says how likely the window (or
 * session) is unhealthy, its level ({@code ok}, {@code watch}, {@code alarm}) and the findings that
 * raised it, strongest first. Computed by {@link AlarmFunction}; a window with no events scores 0
 * with the reason {@code no events}.
 *
 * <p>With a model ({@code --model}, docs/MODEL.md) the score is the worst session's probability of
 * failure, {@code sessions} lists the highest, and {@code rulesScore} keeps the rules' own score;
 * without one both are absent and the report is as it always was.
 *
 * @param score the score
 * @param level {@code ok}, {@code watch} or {@code alarm}
 * @param reasons the sources that raised it, strongest first
 * @param sessions with a model: the sessions most likely failed, highest first; otherwise empty
 * @param rulesScore with a model: the rules' noisy-OR score; otherwise null
 */
public record Alarm(
    double score,
    String level,
    List<Reason> reasons,
    List<SessionScore> sessions,
    Double rulesScore) {
  /**
   * One source of the alarm.
   *
   * @param source a detector's name, a policy's detector name, or {@code failed_calls}
   * @param count its instances in the window
   * @param contribution {@code 1 - (1 - weight)^count}: what it alone would score
   * @param summary its sentence for people, or empty
   * @param turns the turns it came from (a model's reason), or empty
   * @param refs the event refs it came from (a model's reason), or empty
   */
  public record Reason(
      String source,
      int count,
      double contribution,
      String summary,
      List<String> turns,
      List<Long> refs) {
    /** Copies the lists. */
    public Reason {
      turns = List.copyOf(turns);
      refs = List.copyOf(refs);
    }

    /** A reason of the rules: no turns or refs of its own. */
    public Reason(String source, int count, double contribution, String summary) {
      this(source, count, contribution, summary, List.of(), List.of());
    }
  }

  /**
   * A session's probability of failure under the model.
   *
   * @param session the session's key
   * @param probability its calibrated probability of failure
   */
  public record SessionScore(String session, double probability) {}

  /** Copies the lists. */
  public Alarm {
    reasons = List.copyOf(reasons);
    sessions = List.copyOf(sessions);
  }

  /** An alarm of the rules alone. */
  public Alarm(double score, String level, List<Reason> reasons) {
    this(score, level, reasons, List.of(), null);
  }

  /** The alarm of a window with no events. */
  public static Alarm noEvents() {
    return new Alarm(0, "ok", List.of(new Reason("no events", 0, 0, "the window holds no events")));
  }

  /** {@code {score, level, reasons: [{source, count, contribution, summary}]}}. */
  public ObjectNode toJson() {
    ObjectNode n =
        JsonNodeFactory.instance.objectNode().put("score", round(score)).put("level", level);
    ArrayNode r = n.putArray("reasons");
    for (Reason reason : reasons) {
      ObjectNode o =
          r.addObject()
              .put("source", reason.source())
              .put("count", reason.count())
              .put("contribution", round(reason.contribution()))
              .put("summary", reason.summary());
      if (!reason.turns().isEmpty()) {
        reason.turns().forEach(o.putArray("turns")::add);
      }
      if (!reason.refs().isEmpty()) {
        reason.refs().forEach(o.putArray("refs")::add);
      }
    }
    if (rulesScore != null) {
      ArrayNode s = n.putArray("sessions");
      sessions.forEach(
          x ->
              s.addObject().put("session", x.session()).put("probability", round(x.probability())));
      n.put("rules_score", round(rulesScore));
    }
    return n;
  }

  /** {@code alarm 0.83 (claim_without_action ×2, failed_calls ×1)}: the summary line's part. */
  public String line() {
    StringBuilder sb =
        new StringBuilder(level)
            .append(' ')
            .append(String.format(java.util.Locale.ROOT, "%.2f", score));
    if (!reasons.isEmpty()) {
      sb.append(" (");
      for (int i = 0; i < Math.min(3, reasons.size()); i++) {
        Reason r = reasons.get(i);
        sb.append(i > 0 ? ", " : "").append(r.source());
        if (r.count() > 0) {
          sb.append(" x").append(r.count());
        }
      }
      sb.append(reasons.size() > 3 ? ", …)" : ")");
    }
    return sb.toString();
  }

  private static double round(double v) {
    return Math.round(v * 10_000) / 10_000.0;
  }
}
