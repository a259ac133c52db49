package dev.vigil.report;

import dev.vigil.diagnose.Finding;
import dev.vigil.emobank.Decay;
import dev.vigil.emobank.EmotionRow;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The emotion timeline of {@code report.html}: for each emotion of the window's EmoBank rows, its
 * decayed intensity summed over the rows up to each moment, {@code Σ I·0.5^((t - ts)/h)} over rows
 * with {@code ts ≤ t} (at {@code now} these are the snapshot's totals), sampled at {@value
 * #SAMPLES} moments from the first row to {@code now}; each thorn is marked on its emotion's line
 * at its own time. One reading of the rows, in any order, and memory for the samples only.
 */
final class EmotionTimeline {
  /** Moments sampled per line: enough for a smooth line, few enough for a small file. */
  static final int SAMPLES = 240;

  /** At most this many thorns are marked (the diagnosis classifies at most 200 rows). */
  static final int MAX_MARKS = 200;

  /** A thorn's mark. */
  static final String THORN_COLOR = "#b3261e";

  private static final Map<String, String> COLORS =
      Map.of(
          "frustration",
          "#d64545",
          "anxiety",
          "#e8871e",
          "relief",
          "#3f9b5a",
          "pride",
          "#c9a227",
          "determination",
          "#3b6fd4",
          "curiosity",
          "#8e5bd0",
          "calm",
          "#2aa3a3");
  private static final String[] OTHER_COLORS = {
    "#6b7280", "#a16207", "#0e7490", "#be185d", "#4d7c0f"
  };
  private static final DateTimeFormatter DAY_TIME =
      DateTimeFormatter.ofPattern("MM-dd HH:mm", Locale.ROOT).withZone(ZoneOffset.UTC);

  /**
   * The labels of ticks {@code stepMillis} apart: minutes when they are a minute or more apart,
   * seconds when a second or more, else milliseconds, so that no two ticks read the same; the day
   * too when the span crosses one.
   */
  static DateTimeFormatter tickFormat(double stepMillis, boolean oneDay) {
    String time =
        stepMillis >= 60_000 ? "HH:mm" : stepMillis >= 1_000 ? "HH:mm:ss" : "HH:mm:ss.SSS";
    return DateTimeFormatter.ofPattern(oneDay ? time : "MM-dd " + time, Locale.ROOT)
        .withZone(ZoneOffset.UTC);
  }

  private EmotionTimeline() {}

  /**
   * The chart, or an empty one when the window holds no rows.
   *
   * @param rows the window's live rows
   * @param thorns the diagnosis's thorns
   * @param windowStart the window's start: the chart never begins before it
   */
  static SvgChart of(
      List<EmotionRow> rows, List<Finding> thorns, Decay decay, Instant windowStart, Instant now) {
    if (rows.isEmpty()) {
      return SvgChart.builder(960, 300, 0, 1, 0, 1).build();
    }
    Instant first = null;
    Instant last = null;
    for (EmotionRow r : rows) { // no copy and no sort: the bank's rows are many
      first = first == null || r.ts().isBefore(first) ? r.ts() : first;
      last = last == null || r.ts().isAfter(last) ? r.ts() : last;
    }
    Instant to = now.isAfter(last) ? now : last;
    Instant from = first.minus(Duration.between(first, to).dividedBy(50));
    if (from.isBefore(windowStart) && !first.isBefore(windowStart)) {
      from = windowStart;
    }
    double span = Math.max(1, Duration.between(from, to).toMillis());
    double[] xs = new double[SAMPLES];
    for (int k = 0; k < SAMPLES; k++) {
      xs[k] = k * span / (SAMPLES - 1);
    }
    Map<String, double[]> series = sample(rows, decay, from, span);
    double max = series.values().stream().flatMapToDouble(java.util.Arrays::stream).max().orElse(0);
    List<double[]> marks = new ArrayList<>();
    for (Finding thorn : thorns.subList(0, Math.min(MAX_MARKS, thorns.size()))) {
      double x =
          Math.max(0, Math.min(span, (double) Duration.between(from, thorn.ts()).toMillis()));
      double y = onLine(series.get(thorn.emotion()), x, span);
      marks.add(new double[] {x, y});
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
    markThorns(chart, marks, thorns);
    addTicks(chart, from, to, span, top);
    return chart.build();
  }

  /** Marks each thorn on its emotion's line, titled with its cause, time and intensity. */
  private static void markThorns(
      SvgChart.Builder chart, List<double[]> marks, List<Finding> thorns) {
    for (int i = 0; i < marks.size(); i++) {
      Finding thorn = thorns.get(i);
      chart.mark(
          marks.get(i)[0],
          marks.get(i)[1],
          THORN_COLOR,
          "thorn "
              + thorn.cause()
              + " ("
              + thorn.emotion()
              + ") at "
              + DAY_TIME.format(thorn.ts())
              + " UTC, decayed intensity now "
              + String.format(Locale.ROOT, "%.2f", thorn.intensity()));
    }
  }

  /** Five time ticks across the span (the day too when it crosses one) and three value ticks. */
  private static void addTicks(
      SvgChart.Builder chart, Instant from, Instant to, double span, double top) {
    boolean oneDay =
        from.atZone(ZoneOffset.UTC).toLocalDate().equals(to.atZone(ZoneOffset.UTC).toLocalDate());
    DateTimeFormatter ticks = tickFormat(span / 4, oneDay);
    for (int i = 0; i <= 4; i++) {
      Instant t = from.plusMillis(Math.round(span * i / 4));
      chart.xTick(span * i / 4, ticks.format(t));
    }
    for (int i = 0; i <= 2; i++) {
      chart.yTick(
          top * i / 2, String.format(Locale.ROOT, top >= 100 ? "%.0f" : "%.2f", top * i / 2));
    }
  }

  /**
   * Each emotion's decayed intensity at {@value #SAMPLES} moments evenly spread over {@code
   * spanMillis} from {@code from}: each row joins at the first moment not before it, decayed from
   * its own time, and the sums are carried from one moment to the next (decayed by the time between
   * them). The rows may come in any order.
   */
  static Map<String, double[]> sample(
      List<EmotionRow> rows, Decay decay, Instant from, double spanMillis) {
    Instant[] moments = new Instant[SAMPLES];
    for (int k = 0; k < SAMPLES; k++) {
      moments[k] = from.plusMillis(Math.round(spanMillis * k / (SAMPLES - 1)));
    }
    Map<String, double[]> series = new LinkedHashMap<>();
    for (EmotionRow r : rows) {
      double at = Duration.between(from, r.ts()).toMillis() * (SAMPLES - 1) / spanMillis;
      int k = Math.max(0, Math.min(SAMPLES - 1, (int) Math.ceil(at)));
      while (k > 0 && !moments[k - 1].isBefore(r.ts())) {
        k--;
      }
      while (k < SAMPLES - 1 && moments[k].isBefore(r.ts())) {
        k++;
      }
      series.computeIfAbsent(r.emotion(), e -> new double[SAMPLES])[k] +=
          decay.apply(r.intensity(), r.ts(), moments[k]);
    }
    for (double[] line : series.values()) {
      for (int k = 1; k < SAMPLES; k++) {
        line[k] += line[k - 1] * decay.apply(1.0, moments[k - 1], moments[k]);
      }
    }
    return series;
  }

  /**
   * The height of a line at {@code x}: its first sample not before {@code x}, where the rows up to
   * {@code x} have joined (a thorn's own row among them); 0 for an emotion with no line.
   */
  static double onLine(double[] line, double x, double spanMillis) {
    if (line == null) {
      return 0;
    }
    return line[
        Math.max(0, Math.min(SAMPLES - 1, (int) Math.ceil(x * (SAMPLES - 1) / spanMillis - 1e-9)))];
  }
}
