package dev.vigil.observe.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class KindOverridesTest {
  @ParameterizedTest
  @CsvSource({
    "setReminder, set_reminder",
    "book_hotel, book_hotel",
    "getHTTPStatus, get_http_status",
    "XMLParser, xml_parser",
    "send2fa, send2fa",
    "Weather-Now, weather_now",
    "__x__, x",
    "check calendar, check_calendar"
  })
  void snakeCase(String name, String expected) {
    assertEquals(expected, KindOverrides.snakeCase(name));
  }

  @Test
  void toolKindAndOverrides() {
    assertEquals("tool.set_reminder", KindOverrides.toolKind("setReminder"));
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
