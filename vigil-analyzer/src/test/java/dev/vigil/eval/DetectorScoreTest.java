package dev.vigil.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class DetectorScoreTest {
  @Test
  void precisionIsOverTheSessionsItFiredInRecallOverTheFailedOnes() {
    DetectorScore d = new DetectorScore("x", 4, 3, 6);
    assertEquals(0.75, d.precision(), 1e-12);
    assertEquals(0.5, d.recall(), 1e-12);
  }

  @Test
  void aDetectorThatNeverFiredHasNoPrecisionAndNoFailureNoRecall() {
    assertNull(new DetectorScore("x", 0, 0, 6).precision());
    assertEquals(0.0, new DetectorScore("x", 0, 0, 6).recall(), 1e-12);
    assertNull(new DetectorScore("x", 2, 0, 0).recall());
  }
}
