package dev.vigil.orchestrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class StageMachineTest {
  @Test
  void walksTheStagesInOrder() {
    StageMachine m = new StageMachine();
    assertEquals(Stage.START, m.current());
    m.complete(Step.UPDATE_EB_FROM_LOGS);
    assertEquals(Stage.EB_UPDATED, m.current());
    m.complete(Step.DIAGNOSE_RBT);
    m.complete(Step.BUILD_PROMPT_PATCH);
    assertEquals(Stage.PROMPT_DONE, m.current());
    m.complete(Step.EMIT_UNIFIED_DIFF);
    m.complete(Step.EMIT_UNIFIED_DIFF);
    assertEquals(Stage.PROMPT_DONE, m.current());
    assertFalse(m.finished());
    m.complete(Step.SAVE_PROPOSAL);
    assertEquals("diff_done", m.current().label());
    assertTrue(m.finished());
  }

  @Test
  void aSkippedStageNamesTheStepTheExpectedAndTheActualStage() {
    StageMachine m = new StageMachine();
    StageOrderException e =
        assertThrows(StageOrderException.class, () -> m.check(Step.BUILD_PROMPT_PATCH));
    assertEquals(
        "build_prompt_patch is out of order: it needs stage diagnosed, but the pass is at stage start; "
            + "call update_eb_from_logs first",
        e.getMessage());
    assertEquals(Step.BUILD_PROMPT_PATCH, e.step());
    assertEquals(Stage.DIAGNOSED, e.expected());
    assertEquals(Stage.START, e.actual());
    assertEquals(Stage.START, m.current());
  }

  @Test
  void aRepeatedStepIsRefusedWithoutAHint() {
    StageMachine m = new StageMachine();
    m.complete(Step.UPDATE_EB_FROM_LOGS);
    m.complete(Step.DIAGNOSE_RBT);
    StageOrderException e =
        assertThrows(StageOrderException.class, () -> m.complete(Step.UPDATE_EB_FROM_LOGS));
    assertEquals(
        "update_eb_from_logs is out of order: it needs stage start, but the pass is at stage diagnosed",
        e.getMessage());
    assertEquals(Stage.DIAGNOSED, m.current());
  }

  @ParameterizedTest
  @EnumSource(Step.class)
  void everyStepIsRefusedOnceThePassIsDone(Step step) {
    StageMachine m = new StageMachine();
    for (Step s :
        new Step[] {
          Step.UPDATE_EB_FROM_LOGS, Step.DIAGNOSE_RBT, Step.BUILD_PROMPT_PATCH, Step.SAVE_PROPOSAL
        }) {
      m.complete(s);
    }
    StageOrderException e = assertThrows(StageOrderException.class, () -> m.check(step));
    assertTrue(e.getMessage().startsWith(step.tool() + " is out of order"), e.getMessage());
    assertEquals(Stage.DIFF_DONE, e.actual());
  }
}
