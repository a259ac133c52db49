package dev.vigil.emobank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The bank's rows in columns read back as the rows that went in. */
class LiveRowsTest {
  private static final Instant T = Instant.parse("2026-11-25T10:15:30.123456789Z");

  @Test
  void rowsReadBackAsTheyWentInAcrossGrowth() {
    LiveRows rows = new LiveRows();
    for (int i = 0; i < 1000; i++) {
      rows.add(
          new EmotionRow(
              T.plusNanos(i),
              i % 2 == 0 ? "frustration" : "relief",
              i / 1000.0,
              -0.5 + i % 3,
              "tool.x:" + (i % 7),
              "ep" + (i % 7),
              0.5,
              EmotionRow.SHADOW,
              false));
    }
    assertEquals(1000, rows.size());
    EmotionRow r = rows.get(999);
    assertEquals(
        new EmotionRow(
            T.plusNanos(999),
            "relief",
            0.999,
            -0.5,
            "tool.x:5",
            "ep5",
            0.5,
            EmotionRow.SHADOW,
            false),
        r);
    Instant ts = T.plusNanos(999);
    assertEquals(ts.getEpochSecond() * 1_000_000_000L + ts.getNano(), rows.tsNanos(999));
  }

  @Test
  void setReplacesAndClearEmpties() {
    LiveRows rows = new LiveRows();
    EmotionRow a = EmotionRow.of(T, "anxiety", 0.4, -0.3, "tool.a:timeout");
    EmotionRow b = EmotionRow.of(T.plusSeconds(1), "pride", 0.9, 0.8, "tool.b:ok");
    rows.add(a);
    assertEquals(a, rows.set(0, b));
    assertEquals(List.of(b), rows);
    rows.clear();
    assertEquals(0, rows.size());
    assertThrows(IndexOutOfBoundsException.class, () -> rows.get(0));
  }
}
