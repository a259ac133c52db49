package dev.vigil.diagnose.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.vigil.dialogue.Phrases;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** {@link Phrases#runs} splits a text into the pieces the regular expressions it replaced gave. */
class PhrasesRunsTest {
  private static final Pattern NOT_WORD = Pattern.compile("[^\\p{L}\\p{N}']+");
  private static final Pattern NOT_LETTER_OR_DIGIT = Pattern.compile("[^\\p{L}\\p{N}]+");

  /**
   * Letters of several scripts and cases, digits and numbers of other kinds, marks, symbols,
   * surrogates.
   */
  private static final String[] PARTS = {
    "a",
    "Z",
    "é",
    "ß",
    "ǅ",
    "ʰ",
    "中",
    "ض",
    "٣",
    "²",
    "Ⅻ",
    "½",
    "7",
    "'",
    "’",
    " ",
    "  ",
    ",",
    ".",
    "-",
    "_",
    "\n",
    "\t",
    "\"",
    "\\",
    "{",
    ":",
    "\u0301",
    "\uD83D\uDE00",
    "\uD835\uDC00",
    "\uD800",
    "\uDC00",
    "€",
    "n't",
    "I've",
    "cancelled",
    "İ"
  };

  private static List<String> byPattern(Pattern p, String text) {
    List<String> out = new ArrayList<>(Arrays.asList(p.split(text)));
    out.removeIf(String::isEmpty);
    return out;
  }

  private static List<String> byRuns(String text, boolean apostrophes) {
    List<String> out = new ArrayList<>();
    Phrases.runs(text, apostrophes, out::add);
    return out;
  }

  @Test
  void runsAreTheRegularExpressionsPieces() {
    Random random = new Random(19);
    for (int i = 0; i < 20_000; i++) {
      StringBuilder b = new StringBuilder();
      for (int k = random.nextInt(12); k > 0; k--) {
        b.append(PARTS[random.nextInt(PARTS.length)]);
      }
      String text = b.toString();
      assertEquals(byPattern(NOT_WORD, text), byRuns(text, true), text);
      assertEquals(byPattern(NOT_LETTER_OR_DIGIT, text), byRuns(text, false), text);
    }
    for (int cp = 0; cp < 0x30000; cp++) {
      String text = "a" + new String(Character.toChars(cp)) + "b";
      assertEquals(byPattern(NOT_WORD, text), byRuns(text, true), "U+" + Integer.toHexString(cp));
    }
  }

  @Test
  void wordsOfAnAnswer() {
    assertEquals(
        List.of("i've", "cancelled", "your", "order", "it's", "done", "42"),
        Phrases.words("I’ve CANCELLED your order -- 'it's done' (#42)."));
  }

  @Test
  void aTextJacksonWritesUnescapedHasTheWordsOfItsJson() {
    Random random = new Random(7);
    int unescaped = 0;
    for (int i = 0; i < 20_000; i++) {
      StringBuilder b = new StringBuilder();
      for (int k = random.nextInt(12); k > 0; k--) {
        b.append(PARTS[random.nextInt(PARTS.length)]);
      }
      String text = b.toString();
      String json = TextNode.valueOf(text).toString();
      if (ClaimWithoutAction.unescaped(text)) {
        unescaped++;
        assertEquals('"' + text + '"', json);
        assertEquals(Phrases.words(json), Phrases.words(text), text);
      }
    }
    assertEquals(true, unescaped > 1000, unescaped + " unescaped texts");
  }
}
