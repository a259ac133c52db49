package dev.vigil.orchestrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.appraise.AppraisalRules;
import dev.vigil.diagnose.RbtThresholds;
import dev.vigil.diagnose.detect.DetectorSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rules file: each section it holds replaces the built-in one; the sections it leaves out keep
 * theirs.
 */
class RulesTest {
  @TempDir Path tmp;

  private Rules load(String json) throws Exception {
    return Rules.load(Files.writeString(tmp.resolve("r.json"), json));
  }

  @Test
  void theBuiltInRulesHaveNoPolicies() {
    assertTrue(Rules.defaults().policies().isEmpty());
  }

  @Test
  void aFileWithOnlyPoliciesKeepsEveryOtherSection() throws Exception {
    Rules r =
        load("{\"policies\":[{\"name\":\"p\",\"tool\":\"refund_order\",\"violation\":\"true\"}]}");
    Rules d = Rules.defaults();
    assertEquals(d.appraisal(), r.appraisal());
    assertEquals(d.rbt(), r.rbt());
    assertEquals(d.detectors(), r.detectors());
    assertEquals(
        List.of("policy.p"), r.policies().detectors().stream().map(x -> x.name()).toList());
  }

  @Test
  void eachSectionAFileHoldsReplacesTheBuiltInOne() throws Exception {
    Rules r =
        load(
            "{\"rbt\":{\"positive_emotions\":[\"pride\"],\"thorn_emotions\":[\"frustration\"],"
                + "\"rose_min_intensity\":0.7,\"bud_min_valence\":0.2,\"bud_curiosity_min_intensity\":0.3,"
                + "\"thorn_min_intensity\":0.4},\"detectors\":{\"tool_call_explosion\":{\"max_calls\":3}}}");
    assertEquals(0.7, r.rbt().roseMinIntensity(), 1e-12);
    assertEquals(3, r.detectors().maxCallsPerTurn());
    assertEquals(DetectorSettings.DEFAULTS.plateauRun(), r.detectors().plateauRun());
    assertEquals(AppraisalRules.defaults(), r.appraisal());
    assertTrue(r.policies().isEmpty());

    Rules clampOnly = load("{\"clamp\":{\"min\":0.1,\"max\":1.0}}");
    assertEquals(0.1, clampOnly.appraisal().clampMin(), 1e-12);
    assertEquals(AppraisalRules.defaults().rules(), clampOnly.appraisal().rules());
    assertEquals(RbtThresholds.defaults(), clampOnly.rbt());
  }

  @Test
  void anUnknownSectionIsNamedWithTheKnownOnes() {
    IllegalArgumentException e =
        org.junit.jupiter.api.Assertions.assertThrows(
            IllegalArgumentException.class, () -> load("{\"_doc\":\"mine\",\"policy\":[]}"));
    assertTrue(
        e.getMessage()
            .contains(
                "unknown section(s) [policy]; the sections are clamp, appraisal, rbt, "
                    + "tool_roles, detectors, alarm, policies"),
        e.getMessage());
  }

  @Test
  void theAlarmAndToolRolesSectionsKeepTheirDefaultsWhenAbsent() throws Exception {
    Rules r =
        load(
            "{\"alarm\":{\"watch_from\":0.2},\"tool_roles\":{\"tools\":{\"checkout\":\"write\"}}}");
    assertEquals(0.2, r.alarm().watchFrom(), 1e-12);
    assertEquals(0.6, r.alarm().alarmFrom(), 1e-12);
    assertEquals(dev.vigil.dialogue.ToolRoles.Role.WRITE, r.detectors().roles().ofTool("checkout"));
    assertEquals(dev.vigil.dialogue.ToolRoles.Role.READ, r.detectors().roles().ofTool("get_order"));
  }
}
