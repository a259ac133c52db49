package dev.vigil.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DelayStatsTest {
  @Test
  void medianAndP99AreNearestRankInMilliseconds() {
    DelayStats d = new DelayStats();
    for (int i = 100; i >= 1; i--) {
      d.add(i * 1000L); // 1..100 ms
    }
    DelayStats.Summary s = d.summary();
    assertEquals(100, s.events());
    assertEquals(50.0, s.medianMs());
    assertEquals(99.0, s.p99Ms());
    assertEquals(100.0, s.maxMs());
    assertEquals("delay median=50.0ms p99=99.0ms n=100", s.line());
  }

  @Test
  void noSamplesSayNoSamples() {
    assertEquals("delay n=0", new DelayStats().summary().line());
  }
}
