package dev.vigil.adapt.prompt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PromptLayoutTest {
  private static final String CORE =
      "## BEGIN_CORE_IDENTITY\nYou are Robin.\n## END_CORE_IDENTITY\n";
  private static final String ADAPTIVE =
      "## BEGIN_ADAPTIVE_SECTION\nold rule\n## END_ADAPTIVE_SECTION\n";

  private static byte[] utf8(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static PromptLayout parse(String prompt) throws PromptRefusedException {
    return PromptLayout.parse("robin.txt", utf8(prompt));
  }

  private static PromptRefusedException refusal(byte[] prompt) {
    return assertThrows(
        PromptRefusedException.class, () -> PromptLayout.parse("robin.txt", prompt));
  }

  private static PromptRefusedException refusal(String prompt) {
    return refusal(utf8(prompt));
  }

  @Test
  void findsTheCoreBlockAndTheAdaptiveContentAsByteOffsets() throws Exception {
    String prompt = "intro\n" + CORE + "between\n" + ADAPTIVE + "outro";
    byte[] bytes = utf8(prompt);
    PromptLayout l = PromptLayout.parse("robin.txt", bytes);
    assertEquals(CORE, new String(l.core(bytes), StandardCharsets.UTF_8));
    assertEquals("old rule\n", new String(l.adaptiveContent(bytes), StandardCharsets.UTF_8));
    assertEquals(prompt.indexOf("old rule"), l.adaptiveStart());
    assertEquals(prompt.indexOf("## END_ADAPTIVE"), l.adaptiveEnd());
    assertEquals(LineEnding.LF, l.lineEnding());
    assertEquals(2, l.coreBeginLine());
    assertEquals(4, l.coreEndLine());
    assertEquals(6, l.adaptiveBeginLine());
    assertEquals(8, l.adaptiveEndLine());
    assertTrue(l.coreFirst());
  }

  @Test
  void sectionsMayComeInEitherOrder() throws Exception {
    PromptLayout l = parse(ADAPTIVE + CORE);
    assertFalse(l.coreFirst());
    assertEquals(ADAPTIVE.length(), l.coreStart());
    assertEquals(ADAPTIVE.length() + CORE.length(), l.coreEnd());
  }

  @Test
  void anEmptyAdaptiveSectionHasAnEmptyContentAtTheEndMarker() throws Exception {
    String prompt = CORE + "## BEGIN_ADAPTIVE_SECTION\r\n## END_ADAPTIVE_SECTION";
    PromptLayout l = parse(prompt);
    assertEquals(l.adaptiveStart(), l.adaptiveEnd());
    assertEquals(prompt.indexOf("## END_ADAPTIVE"), l.adaptiveEnd());
    assertEquals(LineEnding.CRLF, l.lineEnding(), "the ending of the begin marker's line");
  }

  @Test
  void markersMayHaveSpacesAndTabsAroundThem() throws Exception {
    PromptLayout l =
        parse(
            "  \t## BEGIN_CORE_IDENTITY \nx\n\t## END_CORE_IDENTITY\t\n"
                + "   ## BEGIN_ADAPTIVE_SECTION\n## END_ADAPTIVE_SECTION   ");
    assertEquals(1, l.coreBeginLine());
    assertEquals(3, l.coreEndLine());
    assertEquals(4, l.adaptiveBeginLine());
    assertEquals(5, l.adaptiveEndLine());
  }

  @Test
  void aByteOrderMarkBeforeTheFirstMarkerIsSetAside() throws Exception {
    PromptLayout l = parse("\uFEFF" + CORE + ADAPTIVE);
    assertEquals(0, l.coreStart(), "the core block starts with its line, BOM included");
    assertEquals(1, l.coreBeginLine());
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "Never write ## END_CORE_IDENTITY in a reply.",
        "`## END_CORE_IDENTITY`",
        "> ## END_CORE_IDENTITY",
        "### END_CORE_IDENTITY",
        "## END_CORE_IDENTITY.",
        "## end_core_identity",
        "##END_CORE_IDENTITY",
        "##  END_CORE_IDENTITY",
        "\u00A0## END_CORE_IDENTITY",
        "\uFEFF## END_CORE_IDENTITY"
      })
  void aMarkerQuotedOrAlteredIsText(String line) throws Exception {
    byte[] bytes = utf8("## BEGIN_CORE_IDENTITY\n" + line + "\n## END_CORE_IDENTITY\n" + ADAPTIVE);
    PromptLayout l = PromptLayout.parse("robin.txt", bytes);
    assertEquals(3, l.coreEndLine(), "line 2 is text inside the core");
  }

  @Test
  void linesEndAtCrLfOrCrAlone() throws Exception {
    String cr = CORE.replace("\n", "\r") + ADAPTIVE.replace("\n", "\r");
    PromptLayout l = parse(cr);
    assertEquals(LineEnding.CR, l.lineEnding());
    assertEquals(4, l.adaptiveBeginLine());
    assertEquals("old rule\r", new String(l.adaptiveContent(utf8(cr)), StandardCharsets.UTF_8));

    String crlf = CORE.replace("\n", "\r\n") + ADAPTIVE.replace("\n", "\r\n");
    PromptLayout l2 = parse(crlf);
    assertEquals(LineEnding.CRLF, l2.lineEnding());
    assertEquals(4, l2.adaptiveBeginLine());
    assertEquals(crlf.indexOf("## END_CORE") + "## END_CORE_IDENTITY\r\n".length(), l2.coreEnd());
  }

  @Test
  void noMarkersAtAllIsRefusedNamingTheFourMarkers() {
    PromptRefusedException e = refusal("You are Robin. Quote: ## BEGIN_CORE_IDENTITY\n");
    assertEquals(RefusalReason.MARKERS_MISSING, e.reason());
    assertTrue(
        e.getMessage().startsWith("prompt robin.txt has none of the markers"), e.getMessage());
    for (Marker m : Marker.values()) {
      assertTrue(e.getMessage().contains(m.text()), e.getMessage());
    }
    assertEquals(RefusalReason.MARKERS_MISSING, refusal(new byte[0]).reason());
  }

  @Test
  void aMissingCoreBlockIsRefused() {
    PromptRefusedException e = refusal("intro\n" + ADAPTIVE);
    assertEquals(RefusalReason.CORE_MISSING, e.reason());
    assertTrue(e.getMessage().contains("no core block"), e.getMessage());
  }

  @Test
  void aCoreBlockTwiceIsRefusedWithTheLines() {
    PromptRefusedException e = refusal(CORE + "x\n" + CORE + ADAPTIVE);
    assertEquals(RefusalReason.CORE_TWICE, e.reason());
    assertEquals(
        "prompt robin.txt: the core block appears 2 times (## BEGIN_CORE_IDENTITY on lines 1, 5, "
            + "## END_CORE_IDENTITY on lines 3, 7); keep exactly one",
        e.getMessage());

    PromptRefusedException ends =
        refusal("## BEGIN_CORE_IDENTITY\n## END_CORE_IDENTITY\n## END_CORE_IDENTITY\n" + ADAPTIVE);
    assertEquals(RefusalReason.CORE_TWICE, ends.reason());
  }

  @Test
  void unbalancedCoreMarkersAreRefused() {
    PromptRefusedException open = refusal("## BEGIN_CORE_IDENTITY\nYou are Robin.\n" + ADAPTIVE);
    assertEquals(RefusalReason.CORE_UNBALANCED, open.reason());
    assertTrue(
        open.getMessage()
            .contains("## BEGIN_CORE_IDENTITY on line 1 has no ## END_CORE_IDENTITY after it"),
        open.getMessage());
    PromptRefusedException close = refusal("You are Robin.\n## END_CORE_IDENTITY\n" + ADAPTIVE);
    assertEquals(RefusalReason.CORE_UNBALANCED, close.reason());
    PromptRefusedException swapped =
        refusal("## END_CORE_IDENTITY\nx\n## BEGIN_CORE_IDENTITY\n" + ADAPTIVE);
    assertEquals(RefusalReason.CORE_UNBALANCED, swapped.reason());
    assertTrue(
        swapped
            .getMessage()
            .contains(
                "## END_CORE_IDENTITY on line 1 comes before ## BEGIN_CORE_IDENTITY "
                    + "on line 3"),
        swapped.getMessage());
  }

  @Test
  void adaptiveMarkersMissingTwiceOrUnbalancedAreRefused() {
    assertEquals(RefusalReason.ADAPTIVE_MISSING, refusal(CORE + "rules\n").reason());
    assertEquals(RefusalReason.ADAPTIVE_TWICE, refusal(ADAPTIVE + CORE + ADAPTIVE).reason());
    assertEquals(
        RefusalReason.ADAPTIVE_UNBALANCED,
        refusal(CORE + "## BEGIN_ADAPTIVE_SECTION\nx\n").reason());
    assertEquals(
        RefusalReason.ADAPTIVE_UNBALANCED, refusal(CORE + "x\n## END_ADAPTIVE_SECTION\n").reason());
    assertEquals(
        RefusalReason.ADAPTIVE_UNBALANCED,
        refusal(CORE + "## END_ADAPTIVE_SECTION\n## BEGIN_ADAPTIVE_SECTION\n").reason());
  }

  @Test
  void everyProblemIsNamedInOneMessage() {
    PromptRefusedException e = refusal(CORE + CORE + "## BEGIN_ADAPTIVE_SECTION\n");
    assertEquals(RefusalReason.CORE_TWICE, e.reason());
    assertTrue(e.getMessage().contains("appears 2 times"), e.getMessage());
    assertTrue(
        e.getMessage()
            .contains("## BEGIN_ADAPTIVE_SECTION on line 7 has no ## END_ADAPTIVE_SECTION"),
        e.getMessage());
  }

  @Test
  void sectionsThatOverlapOrNestAreRefused() {
    PromptRefusedException nested =
        refusal("## BEGIN_CORE_IDENTITY\n" + ADAPTIVE + "## END_CORE_IDENTITY\n");
    assertEquals(RefusalReason.SECTIONS_OVERLAP, nested.reason());
    assertTrue(
        nested
            .getMessage()
            .contains("the adaptive section (lines 2-4) and the core block (lines 1-5)"),
        nested.getMessage());
    PromptRefusedException crossed =
        refusal(
            "## BEGIN_CORE_IDENTITY\n## BEGIN_ADAPTIVE_SECTION\n"
                + "## END_CORE_IDENTITY\n## END_ADAPTIVE_SECTION\n");
    assertEquals(RefusalReason.SECTIONS_OVERLAP, crossed.reason());
  }

  @Test
  void bytesThatAreNotUtf8AreRefusedWithTheirOffsetAndLine() {
    byte[] latin1 = (CORE + "Caf\u00e9\n" + ADAPTIVE).getBytes(StandardCharsets.ISO_8859_1);
    PromptRefusedException e = refusal(latin1);
    assertEquals(RefusalReason.NOT_UTF8, e.reason());
    assertEquals(
        "prompt robin.txt is not valid UTF-8: byte 0xE9 at offset "
            + (CORE.length() + 3)
            + " (line 4); save the file as UTF-8",
        e.getMessage());

    byte[][] invalid = {
      {(byte) 0xC0, (byte) 0xAF}, // overlong '/'
      {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, // a UTF-16 surrogate encoded
      {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, // past U+10FFFF
      {(byte) 0xE2, (byte) 0x82}, // truncated at the end of the file
      {(byte) 0x80}
    }; // a lone continuation byte
    for (byte[] bad : invalid) {
      byte[] prompt = utf8(CORE + ADAPTIVE);
      byte[] withBad = new byte[prompt.length + bad.length];
      System.arraycopy(prompt, 0, withBad, 0, prompt.length);
      System.arraycopy(bad, 0, withBad, prompt.length, bad.length);
      PromptRefusedException r = refusal(withBad);
      assertEquals(RefusalReason.NOT_UTF8, r.reason());
      assertTrue(r.getMessage().contains("at offset " + prompt.length), r.getMessage());
    }
  }

  @Test
  void theCoreBlockIncludesItsMarkersAndTheClosingLineEnding() throws Exception {
    byte[] bytes =
        utf8("a\r\n## BEGIN_CORE_IDENTITY\r\nyou\r\n## END_CORE_IDENTITY\r\n" + ADAPTIVE);
    PromptLayout l = PromptLayout.parse("p", bytes);
    assertArrayEquals(
        utf8("## BEGIN_CORE_IDENTITY\r\nyou\r\n## END_CORE_IDENTITY\r\n"), l.core(bytes));
  }
}
