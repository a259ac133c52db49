package dev.vigil.adapt.code;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.vigil.diagnose.Diagnosis;
import dev.vigil.diagnose.ThornCause;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class EvidenceTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "tool.set_reminder.premature:fail, PREMATURE",
    "timestamp.inconsistent:delay, TIMESTAMP",
    "tool.forecast:timeout, TIMEOUT",
    "tool.forecast:delay, DELAY",
    "reminder.delay_notice:ok, DELAY",
    "tool.forecast:fail, FAILURE",
    "tool.forecast:error, FAILURE",
    "user:complaint, FAILURE",
    "api.error:ok, FAILURE",
    "tool.forecast:ok, OTHER",
    "nocolon, OTHER"
  })
  void readsWhatACauseSays(String cause, ThornKind kind) {
    assertEquals(kind, ThornKind.of(cause));
  }

  @Test
  void isFilledFromADiagnosisTopThorns() {
    Diagnosis d =
        new Diagnosis(
            List.of(),
            List.of(),
            List.of(),
            List.of(
                new ThornCause("tool.set_reminder.premature:fail", 7.5, 12),
                new ThornCause("tool.set_reminder:delay", 2.0, 4)),
            List.of(),
            16,
            false);
    Evidence e =
        Evidence.builder().diagnosis(d).prematureSuccesses(12).meanReceiptLagSec(97).build();
    assertEquals(
        Map.of("tool.set_reminder.premature:fail", 12, "tool.set_reminder:delay", 4),
        e.thornsByCause());
    assertEquals("tool.set_reminder.premature:fail", e.topThornCause());
    assertEquals(7.5, e.topThornIntensity());
    assertEquals(16, e.thorns());
    assertEquals(12, e.thorns(ThornKind.PREMATURE));
    assertEquals(4, e.thorns(ThornKind.DELAY));
    assertEquals(ThornKind.PREMATURE, e.topThornKind());
    assertEquals(OptionalDouble.of(97), e.meanReceiptLagSec());
  }

  @Test
  void nothingMeansNothing() {
    Evidence none = Evidence.none();
    assertEquals(0, none.thorns());
    assertEquals(ThornKind.OTHER, none.topThornKind());
    assertEquals(OptionalDouble.empty(), none.meanReceiptLagSec());
    assertEquals(List.of(), none.slowTools());
  }

  @Test
  void negativeCountsAreRefusedByName() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> Evidence.builder().failures(-1).build());
    assertEquals("evidence: failures is -1; counts must be 0 or more", e.getMessage());
    IllegalArgumentException t =
        assertThrows(
            IllegalArgumentException.class,
            () -> Evidence.builder().thorns("tool.x:fail", -2).build());
    assertEquals(
        "evidence: thorn count of cause \"tool.x:fail\" is -2; counts must be 0 or more",
        t.getMessage());
  }
}
