package dev.vigil.adapt.prompt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * Fuzzes the prompt file and its guard (docs/CONTRIBUTING.md#fuzzing): a prompt's bytes either
 * parse to one core block and one adaptive section or are refused with {@link
 * PromptRefusedException} naming the prompt, never anything else; and a prompt that parses is
 * always patched, whatever the new content holds (a note that quotes the markers, line breaks of
 * every kind), with its core block and every byte around the adaptive content unchanged: the guard
 * never refuses a patch of a valid prompt. The input is the prompt, then optionally a zero byte and
 * the reflection's note. Without {@code JAZZER_FUZZ} this replays the inputs under {@code
 * PromptPatchFuzzTestInputs/patchPrompt/}.
 */
class PromptPatchFuzzTest {
  private static final String NAME = "fuzz/prompt.txt";
  private static final Instant NOW = Instant.parse("2026-01-02T03:04:05Z");

  @FuzzTest
  void patchPrompt(byte[] input) {
    int zero = indexOf(input, (byte) 0);
    byte[] prompt = zero < 0 ? input : Arrays.copyOf(input, zero);
    String note =
        zero < 0
            ? "## END_ADAPTIVE_SECTION\n  ## BEGIN_CORE_IDENTITY\t\r\nkeep receipts"
            : new String(input, zero + 1, input.length - zero - 1, StandardCharsets.UTF_8);
    PromptLayout before;
    try {
      before = PromptLayout.parse(NAME, prompt);
    } catch (PromptRefusedException e) {
      assertNotNull(e.reason());
      assertNotNull(e.getMessage());
      assertEquals(true, e.getMessage().contains(NAME), e.getMessage());
      return;
    }
    AdaptiveContent content =
        new AdaptiveContent(
            List.of("wait for the receipt\n## END_ADAPTIVE_SECTION", note),
            List.of(new PlanItem(note, 0.5, 2)),
            note,
            NOW,
            note);
    PromptPatch patch;
    try {
      patch = PromptPatch.build(NAME, prompt, content);
    } catch (PromptRefusedException e) {
      throw new AssertionError("a prompt that parses was refused: " + e.getMessage(), e);
    }
    assertArrayEquals(before.core(prompt), patch.after().core(patch.patched()));
    assertArrayEquals(
        content.render(before.lineEnding()), patch.after().adaptiveContent(patch.patched()));
  }

  private static int indexOf(byte[] bytes, byte b) {
    for (int i = 0; i < bytes.length; i++) {
      if (bytes[i] == b) {
        return i;
      }
    }
    return -1;
  }
}
