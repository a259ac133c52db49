package dev.vigil.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vigil.emobank.Decay;
import dev.vigil.emobank.EmotionRow;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class RbtClassifierTest {
  private final RbtClassifier classifier = new RbtClassifier(RbtThresholds.defaults());

  @ParameterizedTest(name = "{0} I={1} v={2} -> {3}")
  @CsvSource({
    "relief, 0.5, 0.6, ROSE",
    "relief, 0.49, 0.6, BUD",
    "pride, 0.5, 0.85, ROSE",
    "calm, 0.3, 0.2, BUD",
    "calm, 0.3, 0.19, NONE",
    "curiosity, 0.3, 0.4, BUD",
    "curiosity, 0.29, 0.4, NONE",
    "frustration, 0.4, -0.7, THORN",
    "frustration, 0.39, -0.7, NONE",
    "anxiety, 0.4, -0.6, THORN",
    "determination, 0.9, 0.4, NONE"
  })
  void classifiesAtTheThresholds(
      String emotion, double intensity, double valence, RbtClass expected) {
    assertEquals(expected, classifier.classify(emotion, intensity, valence));
  }

  @Test
  void ranksThornCausesBySummedDecayedIntensityOverTheNewest200Rows() {
    Instant now = Instant.parse("2026-11-22T12:00:00Z");
    List<EmotionRow> rows = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      rows.add(EmotionRow.of(now.minusSeconds(10_000 - i), "frustration", 0.9, -0.7, "old:fail"));
    }
    for (int i = 0; i < 200; i++) {
      String cause = i % 4 == 0 ? "a:fail" : "b:delay";
      String emotion = i % 4 == 0 ? "frustration" : "anxiety";
      rows.add(EmotionRow.of(now, emotion, i % 4 == 0 ? 0.9 : 0.5, -0.6, cause));
    }
    Diagnosis d =
        new RbtDiagnosis(RbtThresholds.defaults(), new Decay(Duration.ofHours(12)))
            .diagnose(rows, now);
    assertEquals(200, d.rowsConsidered());
    assertEquals(200, d.thorns().size());
    assertEquals("b:delay", d.topThorns().get(0).cause());
    assertEquals(75.0, d.topThorns().get(0).intensity(), 1e-9);
    assertEquals("a:fail", d.topThorns().get(1).cause());
    assertEquals(45.0, d.topThorns().get(1).intensity(), 1e-9);
    assertEquals(2, d.topThorns().size(), "rows older than the newest 200 are not considered");
    assertEquals(PromptRuleCatalogue.Family.DELAY.rules.get(0), d.promptRulesToAdd().get(0));
    assertEquals(true, d.noRoses());
  }

  @Test
  void isThornFollowsTheClassifiersFirstRule() {
    RbtThresholds t = RbtThresholds.defaults();
    assertEquals(true, t.isThorn("frustration", 0.4, -0.7));
    assertEquals(false, t.isThorn("frustration", 0.39, -0.7));
    RbtThresholds overlapping =
        new RbtThresholds(
            java.util.Set.of("relief", "anxiety"),
            t.thornEmotions(),
            t.roseMinIntensity(),
            t.budMinValence(),
            t.budCuriosityMinIntensity(),
            t.thornMinIntensity());
    assertEquals(
        false,
        overlapping.isThorn("anxiety", 0.9, -0.6),
        "a rose first, by the first rule that holds");
  }
}
