package dev.vigil.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The chart's numbers are written as {@code String.format(Locale.ROOT, "%.1f", v)} writes them. */
class OneDecimalTest {
  private static void same(double v) {
    assertEquals(String.format(Locale.ROOT, "%.1f", v), OneDecimal.of(v), "value " + v);
  }

  @Test
  void edgesAreWrittenAsTheFormatterWritesThem() {
    double[] edges = {
      0.0,
      -0.0,
      0.05,
      -0.05,
      0.04999,
      0.15,
      0.25,
      0.95,
      -0.95,
      9.95,
      99.95,
      0.45,
      1e-5,
      -1e-5,
      1e7,
      1.5e7,
      123456789.25,
      -3.75,
      Double.MIN_VALUE,
      Double.MAX_VALUE,
      Double.NaN,
      Double.POSITIVE_INFINITY,
      Double.NEGATIVE_INFINITY
    };
    for (double v : edges) {
      same(v);
    }
  }

  @Test
  void randomValuesOfEveryScaleAreWrittenAsTheFormatterWritesThem() {
    Random random = new Random(19);
    for (int i = 0; i < 200_000; i++) {
      double scale = Math.pow(10, random.nextInt(12) - 4);
      same((random.nextDouble() * 2 - 1) * scale);
      same(
          Math.round(random.nextDouble() * 20_000) / 100.0
              - 100); // two decimals, as pixel positions often are
    }
  }
}
