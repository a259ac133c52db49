package dev.vigil.report;

import dev.vigil.diagnose.Finding;
import dev.vigil.emobank.Decay;
import dev.vigil.emobank.EmotionRow;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The emotion timeline of {@code report.html}: for each emotion of the window's EmoBank rows, its decayed
 * intensity summed over the rows up to each moment, {@code Σ I·0.5^((t - ts)/h)} over rows with {@code ts ≤ t} (at
 * {@code now} these are the snapshot's totals), sampled at {@value #SAMPLES} moments from the first row to
 * {@code now}; each thorn is marked on its emotion's line at its own time.
 */
final class EmotionTimeline {
  /** Moments sampled per line: enough for a smooth line, few enough for a small file. */
  static final int SAMPLES = 240;
  /** At most this many thorns are marked (the diagnosis classifies at most 200 rows). */
  static final int MAX_MARKS = 200;
  /** A thorn's mark. */
  static final String THORN_COLOR = "#b3261e";

  private static final Map<String, String> COLORS = Map.of(
      "frustration", "#d64545", "anxiety", "#e8871e", "relief", "#3f9b5a", "pride", "#c9a227",
      "determination", "#3b6fd4", "curiosity", "#8e5bd0", "calm", "#2aa3a3");
  private static final String[] OTHER_COLORS = {"#6b7280", "#a16207", "#0e7490", "#be185d", "#4d7c0f"};
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm", Locale.ROOT)
      .withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter DAY_TIME = DateTimeFormatter.ofPattern("MM-dd HH:mm", Locale.ROOT)
      .withZone(ZoneOffset.UTC);

  private EmotionTimeline() {}

  /**
   * The chart, or an empty one when the window holds no rows.
   *
   * @param rows        the window's live rows
   * @param thorns      the diagnosis's thorns
   * @param windowStart the window's start: the chart never begins before it
   */
  static SvgChart of(List<EmotionRow> rows, List<Finding> thorns, Decay decay, Instant windowStart, Instant now) {
    if (rows.isEmpty()) {
      return SvgChart.builder(960, 300, 0, 1, 0, 1).build();
    }
    List<EmotionRow> sorted = new ArrayList<>(rows);
    sorted.sort(Comparator.comparing(EmotionRow::ts));
    Instant first = sorted.get(0).ts();
    Instant to = now.isAfter(sorted.get(sorted.size() - 1).ts()) ? now : sorted.get(sorted.size() - 1).ts();
    Instant from = first.minus(Duration.between(first, to).dividedBy(50));
    if (from.isBefore(windowStart) && !first.isBefore(windowStart)) {
      from = windowStart;
    }
    double span = Math.max(1, Duration.between(from, to).toMillis());
    double[] xs = new double[SAMPLES];
    for (int k = 0; k < SAMPLES; k++) {
      xs[k] = k * span / (SAMPLES - 1);
    }
    Map<String, double[]> series = sample(sorted, decay, from, span);
    double max = series.values().stream().flatMapToDouble(java.util.Arrays::stream).max().orElse(0);
    List<double[]> marks = new ArrayList<>();
    for (Finding thorn : thorns.subList(0, Math.min(MAX_MARKS, thorns.size()))) {
      double y = valueAt(sorted, thorn.emotion(), thorn.ts(), decay);
      marks.add(new double[] {Math.max(0, Duration.between(from, thorn.ts()).toMillis()), y});
      max = Math.max(max, y);
    }
    double top = max <= 0 ? 1 : max * 1.05;
    SvgChart.Builder chart = SvgChart.builder(960, 300, 0, span, 0, top);
    int other = 0;
    for (Map.Entry<String, double[]> e : series.entrySet()) {
      String color = COLORS.get(e.getKey());
      if (color == null) {
        color = OTHER_COLORS[other++ % OTHER_COLORS.length];
      }
      chart.line(e.getKey(), color, xs, e.getValue());
    }
    for (int i = 0; i < marks.size(); i++) {
      Finding thorn = thorns.get(i);
      chart.mark(marks.get(i)[0], marks.get(i)[1], THORN_COLOR, "thorn " + thorn.cause() + " (" + thorn.emotion()
          + ") at " + DAY_TIME.format(thorn.ts()) + " UTC, decayed intensity now "
          + String.format(Locale.ROOT, "%.2f", thorn.intensity()));
    }
    boolean oneDay = from.atZone(ZoneOffset.UTC).toLocalDate().equals(to.atZone(ZoneOffset.UTC).toLocalDate());
    for (int i = 0; i <= 4; i++) {
      Instant t = from.plusMillis(Math.round(span * i / 4));
      chart.xTick(span * i / 4, (oneDay ? TIME : DAY_TIME).format(t));
    }
    for (int i = 0; i <= 2; i++) {
      chart.yTick(top * i / 2, String.format(Locale.ROOT, top >= 100 ? "%.0f" : "%.2f", top * i / 2));
    }
    return chart.build();
  }

  /**
   * Each emotion's decayed intensity at {@value #SAMPLES} moments evenly spread over {@code spanMillis} from
   * {@code from}: the sums are carried from one moment to the next (decayed by the time between them) and each row
   * joins at the first moment not before it, decayed from its own time.
   *
   * @param sorted the rows, oldest first
   */
  static Map<String, double[]> sample(List<EmotionRow> sorted, Decay decay, Instant from, double spanMillis) {
    Map<String, double[]> series = new LinkedHashMap<>();
    sorted.forEach(r -> series.computeIfAbsent(r.emotion(), e -> new double[SAMPLES]));
    Map<String, Double> running = new LinkedHashMap<>();
    int next = 0;
    Instant previous = from;
    for (int k = 0; k < SAMPLES; k++) {
      Instant t = from.plusMillis(Math.round(spanMillis * k / (SAMPLES - 1)));
      double carry = decay.apply(1.0, previous, t);
      running.replaceAll((e, v) -> v * carry);
      for (; next < sorted.size() && !sorted.get(next).ts().isAfter(t); next++) {
        EmotionRow r = sorted.get(next);
        running.merge(r.emotion(), decay.apply(r.intensity(), r.ts(), t), Double::sum);
      }
      for (Map.Entry<String, double[]> e : series.entrySet()) {
        e.getValue()[k] = running.getOrDefault(e.getKey(), 0.0);
      }
      previous = t;
    }
    return series;
  }

  /** The decayed intensity of one emotion at {@code t}: its rows up to {@code t}, decayed to {@code t}. */
  static double valueAt(List<EmotionRow> sorted, String emotion, Instant t, Decay decay) {
    double sum = 0;
    for (EmotionRow r : sorted) {
      if (r.ts().isAfter(t)) {
        break;
      }
      if (r.emotion().equals(emotion)) {
        sum += decay.apply(r.intensity(), r.ts(), t);
      }
    }
    return sum;
  }
}
