package dev.vigil.demo.corpus;

import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The corpus's one source of randomness: every choice comes from a fixed seed, so a run regenerates
 * it exactly.
 */
final class Pick {
  private final Random random;

  Pick(long seed) {
    this.random = new Random(seed);
  }

  /** One of the options. */
  String of(String... options) {
    return options[random.nextInt(options.length)];
  }

  /** One of the options. */
  <T> T of(List<T> options) {
    return options.get(random.nextInt(options.size()));
  }

  /** A whole number in {@code [from, to]}. */
  int between(int from, int to) {
    return from + random.nextInt(to - from + 1);
  }

  /** True with probability {@code p}. */
  boolean chance(double p) {
    return random.nextDouble() < p;
  }

  /** The underlying generator, for shuffles. */
  Random random() {
    return random;
  }

  /** Euros with two decimals. */
  static String euros(double amount) {
    return String.format(Locale.ROOT, "%.2f", amount);
  }
}
