package dev.vigil.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ToolKindTest {
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
    assertEquals(expected, ToolKind.snakeCase(name));
  }

  @Test
  void kindIsToolAndTheSnakeCaseName() {
    assertEquals("tool.set_reminder", ToolKind.of("setReminder"));
  }
}
