package dev.vigil.adapt.prompt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The guard rejects every candidate that changes a byte outside the adaptive content, whatever made
 * it.
 */
class PromptGuardTest {
  private static final String PROMPT =
      "Intro 😀\r\n## BEGIN_CORE_IDENTITY\r\nYou are Robin, 提醒.\r\n"
          + "## END_CORE_IDENTITY\r\nbetween\r\n## BEGIN_ADAPTIVE_SECTION\r\nold\r\n## END_ADAPTIVE_SECTION\r\nend\r\n";
  private static final byte[] ORIGINAL = PROMPT.getBytes(StandardCharsets.UTF_8);
  private static final AdaptiveContent CONTENT =
      new AdaptiveContent(
          List.of("Wait for the receipt."),
          List.of(new PlanItem("tool.set_reminder:fail", 2.5, 3)),
          "Receipts came late.",
          Instant.parse("2026-11-22T12:00:00Z"),
          "7");

  private final PromptLayout before = PromptLayout.parse("robin.txt", ORIGINAL);
  private final byte[] content = CONTENT.render(LineEnding.CRLF);

  PromptGuardTest() throws PromptRefusedException {}

  private byte[] honest() {
    return splice(ORIGINAL, content);
  }

  private byte[] splice(byte[] prompt, byte[] newContent) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(prompt, 0, before.adaptiveStart());
    out.writeBytes(newContent);
    out.write(prompt, before.adaptiveEnd(), prompt.length - before.adaptiveEnd());
    return out.toByteArray();
  }

  private PromptRefusedException rejected(byte[] candidate, byte[] expectedContent) {
    PromptRefusedException e =
        assertThrows(
            PromptRefusedException.class,
            () -> PromptGuard.verify("robin.txt", ORIGINAL, before, candidate, expectedContent));
    assertEquals(RefusalReason.GUARD_FAILED, e.reason());
    assertTrue(e.getMessage().startsWith("prompt robin.txt: guard failed, "), e.getMessage());
    return e;
  }

  /** The byte offset of the first occurrence of {@code text} in the prompt. */
  private static int at(String text) {
    return PROMPT.substring(0, PROMPT.indexOf(text)).getBytes(StandardCharsets.UTF_8).length;
  }

  private static byte[] flip(byte[] bytes, int at) {
    byte[] copy = bytes.clone();
    copy[at] = (byte) (copy[at] == 'x' ? 'y' : 'x');
    return copy;
  }

  @Test
  void acceptsTheHonestPatchAndReturnsItsLayout() throws Exception {
    PromptLayout after = PromptGuard.verify("robin.txt", ORIGINAL, before, honest(), content);
    assertArrayEquals(content, after.adaptiveContent(honest()));
    assertEquals(PromptPatch.build("robin.txt", ORIGINAL, CONTENT).after(), after);
  }

  @Test
  void rejectsAChangeInsideTheCoreBlock() {
    PromptRefusedException e = rejected(flip(honest(), at("Robin,") + 2), content);
    assertTrue(
        e.getMessage().contains("the core block would change (original lines 2-4)"),
        e.getMessage());
  }

  @Test
  void rejectsAChangeInTheCoreMarkerItself() {
    byte[] candidate = honest();
    candidate[at("## BEGIN_CORE_IDENTITY") + 2] =
        '\t'; // "##\tBEGIN_CORE_IDENTITY" is no marker any more
    PromptRefusedException e = rejected(candidate, content);
    assertTrue(e.getMessage().contains("no longer parses"), e.getMessage());
  }

  @Test
  void rejectsAChangeBeforeTheAdaptiveSection() {
    PromptRefusedException e = rejected(flip(honest(), at("between") + 1), content);
    assertTrue(
        e.getMessage()
            .contains(
                "a byte before the adaptive section's content would change (first "
                    + "difference at offset "
                    + (at("between") + 1)
                    + ")"),
        e.getMessage());
  }

  @Test
  void rejectsAChangeAfterTheAdaptiveSection() {
    byte[] candidate = honest();
    PromptRefusedException e = rejected(flip(candidate, candidate.length - 3), content);
    assertTrue(
        e.getMessage().contains("a byte after the adaptive section's content would change"),
        e.getMessage());
  }

  @Test
  void rejectsALineEndingChangedOutsideTheSection() {
    String honest = new String(honest(), StandardCharsets.UTF_8);
    PromptRefusedException before =
        rejected(
            honest.replace("between\r\n", "between\n").getBytes(StandardCharsets.UTF_8), content);
    assertTrue(
        before.getMessage().contains("a byte before the adaptive section"), before.getMessage());
    PromptRefusedException after =
        rejected(
            honest.replace("\r\nend\r\n", "\r\nend\n").getBytes(StandardCharsets.UTF_8), content);
    assertTrue(
        after.getMessage().contains("a byte after the adaptive section"), after.getMessage());
  }

  @Test
  void rejectsContentThatClosesTheSectionEarly() {
    byte[] injected =
        (new String(content, StandardCharsets.UTF_8) + "## END_ADAPTIVE_SECTION\r\nextra\r\n")
            .getBytes(StandardCharsets.UTF_8);
    PromptRefusedException e = rejected(splice(ORIGINAL, injected), injected);
    assertTrue(e.getMessage().contains("no longer parses"), e.getMessage());
    assertTrue(e.getMessage().contains("ADAPTIVE"), e.getMessage());
  }

  @Test
  void rejectsASectionThatDoesNotHoldTheExpectedContent() {
    PromptRefusedException e = rejected(honest(), CONTENT.render(LineEnding.LF));
    assertTrue(e.getMessage().contains("would not hold the new content"), e.getMessage());
  }

  @Test
  void rejectsNewContentInAnotherLineEnding() {
    byte[] lf = CONTENT.render(LineEnding.LF);
    PromptRefusedException e = rejected(splice(ORIGINAL, lf), lf);
    assertTrue(
        e.getMessage()
            .contains("line 1 of the new content does not end with the file's CRLF line ending"),
        e.getMessage());
  }
}
