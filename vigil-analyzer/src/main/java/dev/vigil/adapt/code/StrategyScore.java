package dev.vigil.adapt.code;

import java.util.List;
import java.util.Set;

/**
 * The score both strategies share, in {@code [0, 1]}: {@code evidence · (0.5 + 0.5 · reach)} where
 * {@code evidence = min(1, related / thorns + bonus)} (with {@code related / thorns} read as 0.5
 * when there are no thorns at all but a detector found instances) and {@code reach = min(1,
 * hotspots / 3)}; 0 when the evidence has no signal for the strategy or no hotspot of its
 * categories was found. Rounded to three decimals so that reports are stable.
 */
final class StrategyScore {
  /** Hotspots at which reach is full. */
  static final double FULL_REACH_HOTSPOTS = 3.0;

  private StrategyScore() {}

  static double of(
      Evidence evidence,
      int relatedThorns,
      boolean signal,
      double bonus,
      List<Hotspot> hotspots,
      Set<Category> categories) {
    long relevant = hotspots.stream().filter(h -> categories.contains(h.category())).count();
    if (!signal || relevant == 0) {
      return 0;
    }
    double share = evidence.thorns() > 0 ? (double) relatedThorns / evidence.thorns() : 0.5;
    double strength = Math.min(1, share + bonus);
    double reach = Math.min(1, relevant / FULL_REACH_HOTSPOTS);
    return Math.round(strength * (0.5 + 0.5 * reach) * 1000) / 1000.0;
  }
}
