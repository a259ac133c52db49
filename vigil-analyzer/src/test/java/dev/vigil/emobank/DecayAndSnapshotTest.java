package dev.vigil.emobank;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class DecayAndSnapshotTest {
  private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");
  private static final Decay DECAY = new Decay(Duration.ofHours(12));

  @Test
  void decaysByHalfAtOneHalfLifeAndByAQuarterAtTwo() {
    assertEquals(0.8, DECAY.apply(0.8, NOW, NOW), 1e-12);
    assertEquals(0.4, DECAY.apply(0.8, NOW.minus(Duration.ofHours(12)), NOW), 1e-12);
    assertEquals(0.2, DECAY.apply(0.8, NOW.minus(Duration.ofHours(24)), NOW), 1e-12);
    assertEquals(
        0.4, new Decay(Duration.ofHours(1)).apply(0.8, NOW.minus(Duration.ofHours(1)), NOW), 1e-12);
  }

  @Test
  void snapshotOfAnEmptyBank() {
    Snapshot s = Snapshot.of(List.of(), DECAY, NOW);
    assertEquals("calm", s.mood());
    assertEquals(List.of(), s.dominantEmotions());
    assertEquals(0.2, s.energy());
    assertEquals(0.1, s.stress());
    assertEquals(0.5, s.motivation());
    assertEquals(0.5, s.focus());
  }

  @Test
  void snapshotFormulas() {
    List<EmotionRow> rows =
        List.of(
            EmotionRow.of(NOW, "frustration", 0.9, -0.7, "a:fail"),
            EmotionRow.of(NOW.minus(Duration.ofHours(12)), "curiosity", 0.6, 0.4, "b:x"),
            EmotionRow.of(NOW, "relief", 0.3, 0.6, "c:ok"),
            EmotionRow.of(NOW, "pride", 0.3, 0.85, "d:ok"));
    Snapshot s = Snapshot.of(rows, DECAY, NOW);
    // decayed: frustration 0.9, curiosity 0.3, relief 0.3, pride 0.3; n = 4
    assertEquals(4, s.rows());
    assertEquals("frustration", s.mood());
    assertEquals(
        List.of("frustration", "curiosity", "relief"),
        s.dominantEmotions()); // ties keep first-seen order
    assertEquals(0.6 * 1.8 / 4, s.energy(), 1e-12);
    assertEquals(0.9 / 4, s.stress(), 1e-12);
    assertEquals(0.6 / 4, s.motivation(), 1e-12);
    assertEquals(0.3 / 4, s.focus(), 1e-12);
  }

  @Test
  void snapshotValuesAreCappedAtOne() {
    // rows from a day after now (an agent whose clock runs ahead): decay doubles them twice, to 4.0
    // each, so every
    // uncapped value exceeds 1: energy 0.6 * 8 / 2 = 2.4, stress 4 / 2 = 2, motivation and focus 4
    // / 2 = 2
    Instant ahead = NOW.plus(Duration.ofHours(24));
    List<EmotionRow> rows =
        List.of(
            EmotionRow.of(ahead, "frustration", 1.0, -0.7, "a:fail"),
            EmotionRow.of(ahead, "curiosity", 1.0, 0.4, "b:x"));
    Snapshot s = Snapshot.of(rows, DECAY, NOW);
    assertEquals(4.0, s.totals().get("frustration"), 1e-12, "the totals themselves are not capped");
    assertEquals(4.0, s.totals().get("curiosity"), 1e-12);
    assertEquals(1.0, s.energy(), 1e-12);
    assertEquals(1.0, s.stress(), 1e-12);
    assertEquals(1.0, s.motivation(), 1e-12);
    assertEquals(1.0, s.focus(), 1e-12);
  }
}
