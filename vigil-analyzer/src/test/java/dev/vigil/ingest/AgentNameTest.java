package dev.vigil.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AgentNameTest {
  @Test
  void eventsWithoutAnAgentAreUnnamed() {
    assertEquals("unnamed", AgentName.display(null));
    assertEquals("unnamed", AgentName.display("  "));
    assertEquals("robin", AgentName.display("robin"));
  }

  @Test
  void safeNamesAreKeptAsTheyAre() {
    assertEquals("robin", AgentName.directory("robin"));
    assertEquals("Robin-2.prod_eu", AgentName.directory("Robin-2.prod_eu"));
  }

  @Test
  void otherCharactersBecomeUnderscoresWithAHashOfTheOriginal() {
    String dir = AgentName.directory("billing/agent v2");
    assertTrue(dir.matches("billing_agent_v2-[0-9a-f]{8}"), dir);
    assertNotEquals(
        dir,
        AgentName.directory("billing_agent v2"),
        "names differing in a replaced character differ");
    assertTrue(AgentName.directory("..").matches("_\\.-[0-9a-f]{8}"), AgentName.directory(".."));
    assertTrue(AgentName.directory(".hidden").startsWith("_hidden-"));
  }

  @Test
  void longNamesAreCut() {
    String dir = AgentName.directory("a".repeat(200));
    assertEquals(64 + 9, dir.length());
    assertTrue(dir.startsWith("a".repeat(64) + "-"));
  }
}
