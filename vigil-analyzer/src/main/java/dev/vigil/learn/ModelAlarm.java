package dev.vigil.learn;

import dev.vigil.diagnose.Alarm;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The alarm with a model (docs/MODEL.md): the score is the calibrated probability of failure of the
 * window's worst session, the level comes from the model's thresholds, the reasons are the features
 * that moved that session's score most, each with the turns and event refs it came from, and the
 * rules' noisy-OR stays as {@code rules_score}.
 */
public final class ModelAlarm {
  /** How many sessions the alarm lists. */
  static final int SESSIONS = 10;

  private ModelAlarm() {}

  /**
   * The alarm of a window whose sessions scored {@code risks} (highest first); {@code rules}: the
   * rules' alarm.
   */
  public static Alarm of(List<SessionRisk> risks, Alarm rules, SessionModel.Levels levels) {
    if (risks.isEmpty()) {
      return rules;
    }
    SessionRisk worst = risks.get(0);
    List<Alarm.Reason> reasons = new ArrayList<>();
    for (SessionRisk.Contribution c : worst.contributions()) {
      List<String> turns = new ArrayList<>();
      List<Long> refs = new ArrayList<>();
      for (Observations.Source s : c.sources()) {
        if (s.turn() != null && !turns.contains(s.turn())) {
          turns.add(s.turn());
        }
        if (s.ref() >= 0) {
          refs.add(s.ref());
        }
      }
      String summary =
          String.format(
              Locale.ROOT,
              "%s (weight %.3f x value %.3f) in session %s%s",
              c.describe(),
              c.weight(),
              c.value(),
              worst.session(),
              turns.isEmpty()
                  ? ""
                  : (turns.size() == 1 ? ", turn " : ", turns ") + String.join(", ", turns));
      reasons.add(new Alarm.Reason(c.feature(), c.count(), c.part(), summary, turns, refs));
    }
    List<Alarm.SessionScore> sessions = new ArrayList<>();
    for (SessionRisk r : risks.subList(0, Math.min(SESSIONS, risks.size()))) {
      sessions.add(new Alarm.SessionScore(r.session(), r.probability()));
    }
    return new Alarm(
        worst.probability(), levels.of(worst.probability()), reasons, sessions, rules.score());
  }
}
