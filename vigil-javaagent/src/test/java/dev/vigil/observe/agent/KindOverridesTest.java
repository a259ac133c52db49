package dev.vigil.observe.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class KindOverridesTest {
  @Test
  void overrides() {
    KindOverrides k =
        KindOverrides.parse("demo.Backend#confirm=reminder.receipt; demo.Toast#show=ui.toast");
    assertEquals("reminder.receipt", k.kindOf("demo.Backend", "confirm"));
    assertEquals("ui.toast", k.kindOf("demo.Toast", "show"));
    assertNull(k.kindOf("demo.Backend", "send"));
  }

  @Test
  void malformedEntriesAreNamed() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> KindOverrides.parse("demo.Backend#confirm=Receipt"));
    assertEquals(
        "entry \"demo.Backend#confirm=Receipt\": a kind is lower-case and dotted, like a.b",
        e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> KindOverrides.parse("demo.Backend=x"));
  }
}
