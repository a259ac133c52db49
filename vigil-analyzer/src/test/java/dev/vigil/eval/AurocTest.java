package dev.vigil.eval;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class AurocTest {
  @Test
  void countsTheFailedSessionsThatScoreHigherWithTiesCountedOneHalf() {
    // failed 0.9, 0.5, 0.5, 0.2 against good 0.5, 0.3, 0.1: of the 12 pairs, 0.9 wins 3; each 0.5
    // wins 2 and ties 1
    // (2.5); 0.2 wins 1: 9 of 12
    double[] scores = {0.9, 0.5, 0.5, 0.2, 0.5, 0.3, 0.1};
    boolean[] failed = {true, true, true, true, false, false, false};
    assertEquals(0.75, Auroc.of(scores, failed), 1e-12);
  }

  @Test
  void theOrderOfTheSessionsDoesNotMatter() {
    double[] scores = {0.5, 0.1, 0.5, 0.9, 0.3, 0.2, 0.5};
    boolean[] failed = {false, false, true, true, false, true, true};
    assertEquals(0.75, Auroc.of(scores, failed), 1e-12);
  }

  @Test
  void allTiedIsOneHalfPerfectIsOneInvertedIsZero() {
    assertEquals(
        0.5, Auroc.of(new double[] {0.4, 0.4, 0.4}, new boolean[] {true, false, false}), 1e-12);
    assertEquals(
        1.0, Auroc.of(new double[] {0.9, 0.8, 0.1}, new boolean[] {true, true, false}), 1e-12);
    assertEquals(
        0.0, Auroc.of(new double[] {0.1, 0.8, 0.9}, new boolean[] {true, false, false}), 1e-12);
  }

  @Test
  void oneClassOnlyIsUndefined() {
    assertNull(Auroc.of(new double[] {0.1, 0.9}, new boolean[] {true, true}));
    assertNull(Auroc.of(new double[] {0.1, 0.9}, new boolean[] {false, false}));
    assertNull(Auroc.of(new double[] {}, new boolean[] {}));
  }

  @Test
  void levelsRankDistinctScoresAscendingAndEqualScoresShareOne() {
    assertArrayEquals(new int[] {2, 0, 1, 0}, Auroc.levels(new double[] {0.7, 0.1, 0.3, 0.1}));
  }

  @Test
  void aScoreThatIsNotANumberIsRefusedNamingIt() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Auroc.of(new double[] {0.1, Double.NaN}, new boolean[] {true, false}));
    assertEquals("score 1 is not a number", e.getMessage());
  }

  @Test
  void theAreaOfLevelCountsWeighsEachSessionByItsCount() {
    // levels 0, 1, 2: failed 0, 2, 1; good 1, 1, 0. Pairs 3 x 2 = 6: the two at level 1 beat level
    // 0 (2) and tie
    // level 1 (2 x 0.5); the one at level 2 beats both (2): 5 of 6
    assertEquals(5.0 / 6, Auroc.ofLevelCounts(new long[] {0, 2, 1}, new long[] {1, 1, 0}), 1e-12);
  }
}
