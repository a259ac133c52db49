package dev.vigil.diagnose.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class DetectorsTest {
  @Test
  void allNoneOrAListInVigilsOrder() {
    assertEquals(
        Detectors.names(), Detectors.select("all", DetectorSettings.DEFAULTS).selectedNames());
    assertEquals(List.of(), Detectors.select("none", DetectorSettings.DEFAULTS).selectedNames());
    assertEquals(
        List.of("premature_success", "failure_plateau"),
        Detectors.select("failure_plateau, premature_success", DetectorSettings.DEFAULTS)
            .selectedNames());
  }

  @Test
  void anUnknownNameIsNamedWithTheKnownOnes() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> Detectors.select("latency,slowness", DetectorSettings.DEFAULTS));
    assertEquals(
        "--detectors: unknown detector(s) [slowness]; use all, none or a comma-separated list of "
            + "premature_success, latency, timestamp_inconsistent, tool_call_explosion, failure_plateau, "
            + "unconfirmed_write, claim_without_action, user_correction, write_after_refusal",
        e.getMessage());
  }
}
