package dev.vigil.orchestrate.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vigil.dialogue.Claims;
import dev.vigil.dialogue.ToolRoles;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which turns the judge asks about: those that called a write tool (docs/DETECTORS.md#tool-roles)
 * or claimed a write.
 */
class TurnSelectionTest {
  @ParameterizedTest(name = "{0}")
  @CsvSource({
    "cancel_order, true", "cancelOrder, true", "book-flight, true", "set_reminder, true",
        "refund, true",
    "add_to_cart, true", "submitForm, true", "get_order, false", "search_flights, false",
        "settings, false",
    "reset_password, false", "bookings_list, false", "'', false"
  })
  void aWriteToolIsNamedByItsFirstWord(String tool, boolean write) {
    assertEquals(write, ToolRoles.DEFAULTS.ofTool(tool) == ToolRoles.Role.WRITE);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      nullValues = "NULL",
      textBlock =
          """
      Your order has been cancelled.            | cancelled
      I canceled it.                            | canceled
      I've updated your address.                | updated
      The table is booked for 8 pm.             | booked
      I’ve set a reminder for 9.                | set
      I have set it.                            | set
      The refund was sent.                      | sent
      The order was NOT cancelled.              | cancelled
      Your order ships tomorrow.                | NULL
      Shall I set a reminder?                   | NULL
      Would you like me to book it?             | NULL
      Settings are unchanged.                   | NULL
      """)
  void aClaimIsAWriteVerbInThePast(String answer, String word) {
    assertEquals(word, Claims.DEFAULTS.in(answer));
  }
}
