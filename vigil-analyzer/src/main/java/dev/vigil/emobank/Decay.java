package dev.vigil.emobank;

import java.time.Duration;
import java.time.Instant;

/**
 * Exponential decay on read (docs/DESIGN.md#the-emobank, the paper's section 3.3): {@code
 * I·0.5^((now - ts)/h)}.
 *
 * @param halfLife h, {@code --half-life-hours} (12 by default)
 */
public record Decay(Duration halfLife) {
  /** The default half-life. */
  public static final Duration DEFAULT_HALF_LIFE = Duration.ofHours(12);

  /** Checks that the half-life is positive. */
  public Decay {
    if (halfLife.isNegative() || halfLife.isZero()) {
      throw new IllegalArgumentException("half-life must be positive, not " + halfLife);
    }
  }

  /** The intensity {@code raw} recorded at {@code ts}, decayed to {@code now}. */
  public double apply(double raw, Instant ts, Instant now) {
    double elapsedNanos = Duration.between(ts, now).toNanos();
    return raw * Math.pow(0.5, elapsedNanos / halfLife.toNanos());
  }
}
