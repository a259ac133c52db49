package dev.vigil.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vigil.diagnose.Finding;
import dev.vigil.emobank.Decay;
import dev.vigil.emobank.EmotionRow;
import dev.vigil.emobank.Snapshot;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The timeline's sums: each emotion's rows up to a moment, decayed to it; at now, the snapshot's
 * totals.
 */
class EmotionTimelineTest {
  private static final Instant T0 = Instant.parse("2026-11-22T00:00:00Z");
  private static final Decay HALF_DAY = new Decay(Duration.ofHours(12));

  private static final List<EmotionRow> ROWS =
      List.of(
          EmotionRow.of(T0, "frustration", 1.0, -0.7, "tool.book:fail"),
          EmotionRow.of(T0.plus(Duration.ofHours(6)), "relief", 0.4, 0.6, "tool.book:ok"),
          EmotionRow.of(T0.plus(Duration.ofHours(12)), "frustration", 1.0, -0.7, "tool.book:fail"));

  @Test
  void eachSampleSumsTheRowsUpToItDecayedToIt() {
    List<EmotionRow> shuffled =
        List.of(ROWS.get(2), ROWS.get(0), ROWS.get(1)); // the order of the rows does not matter
    Map<String, double[]> s =
        EmotionTimeline.sample(shuffled, HALF_DAY, T0, (double) Duration.ofHours(24).toMillis());

    double[] frustration = s.get("frustration");
    assertEquals(1.0, frustration[0], 1e-9, "the first row counts at its own time");
    assertEquals(
        0.25 + 0.5, frustration[EmotionTimeline.SAMPLES - 1], 1e-9, "24 h and 12 h old at the end");
    assertEquals(0.0, s.get("relief")[0], 1e-12, "relief has no row yet at the start");
    assertEquals(
        0.4 * Math.pow(0.5, 18.0 / 12), s.get("relief")[EmotionTimeline.SAMPLES - 1], 1e-9);
    Snapshot snapshot = Snapshot.of(ROWS, HALF_DAY, T0.plus(Duration.ofHours(24)));
    assertArrayEquals(
        new double[] {snapshot.totals().get("frustration"), snapshot.totals().get("relief")},
        new double[] {
          frustration[EmotionTimeline.SAMPLES - 1], s.get("relief")[EmotionTimeline.SAMPLES - 1]
        },
        1e-9,
        "at now the lines end on the snapshot's totals");
  }

  @Test
  void aThornIsMarkedOnItsEmotionsLineAtItsOwnTime() {
    Finding thorn =
        new Finding(T0.plus(Duration.ofHours(12)), "frustration", 0.5, -0.7, "tool.book:fail");
    SvgChart chart =
        EmotionTimeline.of(
            ROWS,
            List.of(thorn),
            HALF_DAY,
            T0.minus(Duration.ofHours(1)),
            T0.plus(Duration.ofHours(24)));
    assertEquals(
        List.of("frustration", "relief"),
        chart.lines().stream().map(SvgChart.Line::label).toList());
    assertEquals(1, chart.marks().size());
    // the thorn at 12 h sits on the frustration line: the first row decayed half, and the thorn's
    // own row
    Map<String, double[]> s =
        EmotionTimeline.sample(
            ROWS,
            HALF_DAY,
            T0.minus(Duration.ofHours(1)),
            (double) Duration.ofHours(25).toMillis());
    assertEquals(
        EmotionTimeline.onLine(
            s.get("frustration"),
            (double) Duration.ofHours(13).toMillis(),
            (double) Duration.ofHours(25).toMillis()),
        0.5 + 1.0,
        0.05);
    assertEquals(EmotionTimeline.SAMPLES, chart.lines().get(0).points().split(" ").length);
  }

  @Test
  void theTicksAreLabelledAtTheResolutionTheSpanNeeds() {
    for (Duration span :
        List.of(
            Duration.ofSeconds(2),
            Duration.ofMinutes(3),
            Duration.ofMinutes(40),
            Duration.ofHours(30))) {
      Instant end = T0.plus(span);
      List<EmotionRow> rows =
          List.of(ROWS.get(0), EmotionRow.of(end, "frustration", 1.0, -0.7, "tool.book:fail"));
      SvgChart chart =
          EmotionTimeline.of(rows, List.of(), HALF_DAY, T0.minus(Duration.ofDays(2)), end);
      List<String> labels = chart.xTicks().stream().map(SvgChart.Tick::label).toList();
      assertEquals(labels.size(), new java.util.HashSet<>(labels).size(), span + ": " + labels);
    }
  }
}
