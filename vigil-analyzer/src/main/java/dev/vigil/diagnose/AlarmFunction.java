package dev.vigil.diagnose;

import dev.vigil.diagnose.detect.Detection;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The alarm's function (docs/DESIGN.md#the-alarm), deterministic: a noisy-OR over the window's
 * findings. Each instance of a source with weight {@code w} is taken as independent evidence that
 * the window is unhealthy with probability {@code w}, so that
 *
 * <pre>score = 1 - Π over sources (1 - w_source)^count_source</pre>
 *
 * <p>The sources are every detector that fired (its count; a policy rule's detection may carry its
 * own {@code severity} in its evidence, used as its weight) and the window's failed tool calls
 * (status {@code fail}, {@code timeout} or {@code error}; weight 0.1 by default: failures an agent
 * recovers from are common, so each says little). Roses and successful calls lower nothing: a
 * healthy signal is the absence of findings, never evidence against them. A window with no events
 * scores 0 ({@code no events}), never the empty bank's default stress.
 */
public final class AlarmFunction {
  private AlarmFunction() {}

  /**
   * The alarm of a window.
   *
   * @param events how many raw events the window holds
   * @param failed of those, failed tool calls (status {@code fail}, {@code timeout} or {@code
   *     error}; conversation context is not a call)
   * @param detections what each detector found
   * @param settings the weights and levels
   */
  public static Alarm of(
      long events, long failed, List<Detection> detections, AlarmSettings settings) {
    if (events == 0) {
      return Alarm.noEvents();
    }
    List<Alarm.Reason> reasons = new ArrayList<>();
    for (Detection d : detections) {
      if (d.fired()) {
        double w =
            d.evidence().path("severity").isNumber()
                ? clampUnit(d.evidence().get("severity").doubleValue())
                : settings.weight(d.name());
        reasons.add(reason(d.name(), d.count(), w, d.summary()));
      }
    }
    if (failed > 0) {
      reasons.add(
          reason(
              AlarmSettings.FAILED_CALLS,
              (int) Math.min(Integer.MAX_VALUE, failed),
              settings.weight(AlarmSettings.FAILED_CALLS),
              failed + " failed call(s) in the window"));
    }
    double healthy = 1;
    for (Alarm.Reason r : reasons) {
      healthy *= 1 - r.contribution();
    }
    reasons.sort(Comparator.comparingDouble(Alarm.Reason::contribution).reversed());
    double score = 1 - healthy;
    return new Alarm(score, settings.level(score), reasons);
  }

  private static Alarm.Reason reason(String source, int count, double weight, String summary) {
    return new Alarm.Reason(source, count, 1 - Math.pow(1 - weight, count), summary);
  }

  private static double clampUnit(double v) {
    return Math.min(1, Math.max(0, v));
  }
}
