package dev.vigil.diagnose.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class DurationSketchTest {
  private static double exactMedian(double[] values) {
    double[] d = values.clone();
    Arrays.sort(d);
    int n = d.length;
    return n % 2 == 1 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
  }

  @Test
  void theRunningMedianStaysWithinOnePercentOfTheExactOneAfterEveryValue() {
    Random random = new Random(7);
    for (String shape : new String[] {"uniform", "lognormal", "rising", "falling", "two humps"}) {
      DurationSketch sketch = new DurationSketch();
      double[] values = new double[1_001];
      for (int i = 0; i < values.length; i++) {
        values[i] =
            switch (shape) {
              case "uniform" -> 1 + random.nextDouble() * 999;
              case "lognormal" -> Math.exp(5 + 2 * random.nextGaussian());
              case "rising" -> 10 + i;
              case "falling" -> 10_000 - i;
              default -> i % 2 == 0 ? 50 + random.nextDouble() : 5_000 + random.nextDouble();
            };
        sketch.add(values[i]);
        double exact = exactMedian(Arrays.copyOf(values, i + 1));
        assertEquals(
            exact,
            sketch.median(),
            exact * DurationSketch.ALPHA + 1e-9,
            shape + " after " + (i + 1));
      }
      assertEquals(values.length, sketch.count());
    }
  }

  @Test
  void zeroAndTinyDurationsCountAsZeroAndHugeOnesAreClamped() {
    DurationSketch sketch = new DurationSketch();
    assertEquals(0, sketch.median(), "no values");
    sketch.add(0);
    sketch.add(1e-6);
    sketch.add(0);
    assertEquals(0, sketch.median());
    sketch.add(1e15);
    sketch.add(1e15);
    sketch.add(1e15);
    sketch.add(1e15);
    assertEquals(
        DurationSketch.MAX_MS, sketch.median(), DurationSketch.MAX_MS * DurationSketch.ALPHA);
  }
}
