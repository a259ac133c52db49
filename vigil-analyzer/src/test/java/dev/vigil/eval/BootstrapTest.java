package dev.vigil.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class BootstrapTest {
  private static final int N = 120;

  /**
   * Scores that separate the classes imperfectly: failed ones drawn higher on average, with ties.
   */
  private static double[] scores(boolean[] failed) {
    SplittableRandom r = new SplittableRandom(7);
    double[] s = new double[failed.length];
    for (int i = 0; i < s.length; i++) {
      s[i] = Math.round((r.nextDouble() + (failed[i] ? 0.4 : 0)) * 10) / 10.0;
    }
    return s;
  }

  private static boolean[] labels() {
    boolean[] failed = new boolean[N];
    for (int i = 0; i < N; i++) {
      failed[i] = i % 3 == 0;
    }
    return failed;
  }

  @Test
  void theSameSeedGivesTheSameIntervalAndAnotherSeedAnother() {
    boolean[] failed = labels();
    double[] scores = scores(failed);
    Bootstrap.Interval a = new Bootstrap(500, 42).interval(scores, failed);
    assertEquals(a, new Bootstrap(500, 42).interval(scores, failed));
    assertNotEquals(a, new Bootstrap(500, 43).interval(scores, failed));
  }

  @Test
  void theIntervalHoldsTheAreaOfTheSample() {
    boolean[] failed = labels();
    double[] scores = scores(failed);
    double auroc = Auroc.of(scores, failed);
    Bootstrap.Interval i = Bootstrap.DEFAULT.interval(scores, failed);
    assertTrue(i.low() < auroc && auroc < i.high(), i + " around " + auroc);
    assertTrue(i.low() > 0.5, "the classes are separated: " + i);
  }

  @Test
  void perfectSeparationStaysPerfectInEveryResample() {
    Bootstrap.Interval i =
        new Bootstrap(100, 1)
            .interval(new double[] {0.9, 0.8, 0.2, 0.1}, new boolean[] {true, true, false, false});
    assertEquals(new Bootstrap.Interval(1.0, 1.0), i);
  }

  @Test
  void oneClassOnlyHasNoInterval() {
    assertNull(Bootstrap.DEFAULT.interval(new double[] {0.2, 0.3}, new boolean[] {false, false}));
  }

  @Test
  void percentilesInterpolateBetweenOrderStatistics() {
    double[] sorted = {0, 10, 20, 30, 40};
    assertEquals(1.0, Bootstrap.percentile(sorted, 0.025), 1e-12); // at 0.1 of the way from 0 to 10
    assertEquals(39.0, Bootstrap.percentile(sorted, 0.975), 1e-12);
    assertEquals(20.0, Bootstrap.percentile(sorted, 0.5), 1e-12);
  }

  @Test
  void atLeastOneResample() {
    assertThrows(IllegalArgumentException.class, () -> new Bootstrap(0, 1));
  }
}
