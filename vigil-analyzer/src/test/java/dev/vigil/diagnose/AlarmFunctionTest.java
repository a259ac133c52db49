package dev.vigil.diagnose;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.vigil.diagnose.detect.Detection;
import java.util.List;
import org.junit.jupiter.api.Test;

class AlarmFunctionTest {

  private static Detection found(String name, int count) {
    return new Detection(
        name, count, JsonNodeFactory.instance.objectNode(), name + " found", List.of());
  }

  @Test
  void anEmptyWindowScoresZeroForNoEvents() {
    Alarm a =
        AlarmFunction.of(0, 0, List.of(found("claim_without_action", 3)), AlarmSettings.DEFAULTS);
    assertEquals(0.0, a.score());
    assertEquals("ok", a.level());
    assertEquals("no events", a.reasons().get(0).source());
  }

  @Test
  void findingsCombineAsANoisyOrStrongestFirst() {
    Alarm a =
        AlarmFunction.of(
            4,
            2,
            List.of(found("latency", 0), found("claim_without_action", 2)),
            AlarmSettings.DEFAULTS);
    // claim_without_action: 1 - 0.4^2 = 0.84; two failed calls: 1 - 0.9^2 = 0.19
    assertEquals(1 - 0.16 * 0.81, a.score(), 1e-12);
    assertEquals("alarm", a.level());
    assertEquals(
        List.of("claim_without_action", "failed_calls"),
        a.reasons().stream().map(Alarm.Reason::source).toList());
    assertEquals(0.84, a.reasons().get(0).contribution(), 1e-12);
    assertEquals(2, a.reasons().get(1).count());
  }

  @Test
  void aHealthyWindowScoresZeroAndAPolicySeverityIsItsWeight() {
    long ok = 1;
    assertEquals(
        0.0,
        AlarmFunction.of(ok, 0, List.of(found("unconfirmed_write", 0)), AlarmSettings.DEFAULTS)
            .score());
    Detection policy =
        new Detection(
            "policy.no_refund",
            1,
            JsonNodeFactory.instance.objectNode().put("severity", 0.9),
            "1 violation",
            List.of());
    Alarm a = AlarmFunction.of(ok, 0, List.of(policy), AlarmSettings.DEFAULTS);
    assertEquals(0.9, a.score(), 1e-12);
    assertEquals(
        0.8,
        AlarmFunction.of(ok, 0, List.of(found("policy.other", 1)), AlarmSettings.DEFAULTS).score(),
        1e-12);
    assertEquals(
        0.5,
        AlarmFunction.of(ok, 0, List.of(found("my_detector", 1)), AlarmSettings.DEFAULTS).score(),
        1e-12);
  }

  @Test
  void levelsTurnAtTheirThresholds() {
    assertEquals("ok", AlarmSettings.DEFAULTS.level(0.2999));
    assertEquals("watch", AlarmSettings.DEFAULTS.level(0.3));
    assertEquals("watch", AlarmSettings.DEFAULTS.level(0.5999));
    assertEquals("alarm", AlarmSettings.DEFAULTS.level(0.6));
  }
}
