package dev.vigil.eval;

import java.util.List;

/**
 * One labelled session's pass.
 *
 * @param session the session (or the agent, for events without one)
 * @param failed its label
 * @param events its events
 * @param score the score of its pass (the alarm's)
 * @param level the alarm's level, or null when the score has none
 * @param fired the detectors and policy rules that found something, in the order they ran
 * @param degraded whether its pass finished degraded
 */
record SessionScore(
    String session,
    boolean failed,
    int events,
    double score,
    String level,
    List<String> fired,
    boolean degraded) {
  SessionScore {
    fired = List.copyOf(fired);
  }
}
