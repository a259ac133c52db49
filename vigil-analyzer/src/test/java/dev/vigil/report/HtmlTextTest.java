package dev.vigil.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import org.junit.jupiter.api.Test;
import org.unbescape.html.HtmlEscape;

/** The report's own HTML escaping writes what Pebble's {@code html} strategy (unbescape) writes. */
class HtmlTextTest {
  private final HtmlText html = new HtmlText();

  @Test
  void everyCharacterIsEscapedAsPebblesStrategyEscapesIt() {
    for (int c = 0; c <= 0xFFFF; c++) {
      String text = "a" + (char) c + "b";
      assertEquals(
          HtmlEscape.escapeHtml4Xml(text),
          html.escape(text),
          "character U+" + Integer.toHexString(c));
    }
    String pair = "tea \uD83C\uDF75 <hot> & 'strong' \"now\"";
    assertEquals(HtmlEscape.escapeHtml4Xml(pair), html.escape(pair));
  }

  @Test
  void textWithNothingToEscapeIsReturnedAsItIs() {
    String plain = "Reminder set for 18:00 UTC";
    assertSame(plain, html.escape(plain));
    assertEquals("&lt;b&gt;&amp;&#39;&quot;", html.escape("<b>&'\""));
  }
}
