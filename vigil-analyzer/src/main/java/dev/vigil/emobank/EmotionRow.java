package dev.vigil.emobank;

import java.time.Instant;

/**
 * One row of {@code emotions.jsonl} (docs/DESIGN.md#the-emobank).
 *
 * @param ts the event's timestamp (event time)
 * @param emotion the emotion
 * @param intensity raw intensity, before decay
 * @param valence valence
 * @param cause {@code kind:status}
 * @param episode first 12 hex digits of SHA-1 of the cause ({@link Episode})
 * @param confidence how sure the appraisal is, in [0, 1]
 * @param source {@code event} (appraised from an event) or {@code shadow} (a rebound's
 *     determination row)
 * @param amend true when this row replaces the live row before it (coalescing)
 */
public record EmotionRow(
    Instant ts,
    String emotion,
    double intensity,
    double valence,
    String cause,
    String episode,
    double confidence,
    String source,
    boolean amend) {

  /** Source of rows appraised from events. */
  public static final String FROM_EVENT = "event";

  /** Source of rebound rows. */
  public static final String SHADOW = "shadow";

  /** A row appraised from an event. */
  public static EmotionRow of(
      Instant ts, String emotion, double intensity, double valence, String cause) {
    return new EmotionRow(
        ts, emotion, intensity, valence, cause, Episode.of(cause), 1.0, FROM_EVENT, false);
  }

  /** This row as an amendment with a new timestamp and intensity. */
  public EmotionRow amended(Instant newTs, double newIntensity) {
    return new EmotionRow(
        newTs, emotion, newIntensity, valence, cause, episode, confidence, source, true);
  }

  /** This row with the amend mark cleared, as it stands once it has replaced its predecessor. */
  public EmotionRow live() {
    return amend
        ? new EmotionRow(ts, emotion, intensity, valence, cause, episode, confidence, source, false)
        : this;
  }
}
