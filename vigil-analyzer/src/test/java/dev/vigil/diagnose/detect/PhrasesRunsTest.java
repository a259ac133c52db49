package dev.vigil.diagnose.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.vigil.dialogue.Phrases;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@link Phrases#runs} splits a text into the pieces the regular expressions it replaced gave, and
 * the words of a JSON tree read token by token are those of its JSON form.
 */
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
      String text = randomText(random, 12);
      assertEquals(byPattern(NOT_WORD, text), byRuns(text, true), text);
      assertEquals(byPattern(NOT_LETTER_OR_DIGIT, text), byRuns(text, false), text);
    }
    for (int cp = 0; cp < 0x30000; cp++) {
      String text = "a" + new String(Character.toChars(cp)) + "b";
      assertEquals(byPattern(NOT_WORD, text), byRuns(text, true), "U+" + Integer.toHexString(cp));
    }
  }

  /**
   * The words as first defined: lower case, typographic apostrophes as {@code '}, split by the
   * regular expression, apostrophes at either end dropped.
   */
  private static List<String> wordsByPattern(String text) {
    List<String> out = new ArrayList<>();
    for (String piece :
        byPattern(
            NOT_WORD,
            text.toLowerCase(java.util.Locale.ROOT)
                .replace('\u2019', '\'')
                .replace('\u2018', '\''))) {
      String w = piece.replaceAll("^'+|'+$", "");
      if (!w.isEmpty()) {
        out.add(w);
      }
    }
    return out;
  }

  @Test
  void wordsAreTheRegularExpressionsWordsInAsciiTextAndInOther() {
    Random random = new Random(29);
    for (int i = 0; i < 20_000; i++) {
      StringBuilder b = new StringBuilder();
      boolean ascii = i % 2 == 0;
      for (int k = random.nextInt(12); k > 0; k--) {
        String part = PARTS[random.nextInt(PARTS.length)];
        if (!ascii || part.chars().allMatch(c -> c < 0x80)) {
          b.append(part);
        }
        if (ascii && random.nextInt(4) == 0) {
          b.append((char) random.nextInt(0x80));
        }
      }
      String text = b.toString();
      assertEquals(wordsByPattern(text), Phrases.words(text), text);
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
      String text = randomText(random, 12);
      String json = TextNode.valueOf(text).toString();
      if (ClaimWithoutAction.unescaped(text)) {
        unescaped++;
        assertEquals('"' + text + '"', json);
        assertEquals(Phrases.words(json), Phrases.words(text), text);
      }
    }
    assertEquals(true, unescaped > 1000, unescaped + " unescaped texts");
  }

  @Test
  void theWordsOfATreeReadTokenByTokenAreThoseOfItsJson() {
    Random random = new Random(23);
    for (int i = 0; i < 5_000; i++) {
      JsonNode tree = randomNode(random, 0);
      List<String> walked = new ArrayList<>();
      ClaimWithoutAction.jsonWords(tree, walked::add);
      assertEquals(Phrases.words(tree.toString()), walked, tree.toString());
    }
  }

  /** Fewer than {@code bound} of {@link #PARTS}, drawn at random. */
  private static String randomText(Random random, int bound) {
    StringBuilder b = new StringBuilder();
    for (int k = random.nextInt(bound); k > 0; k--) {
      b.append(PARTS[random.nextInt(PARTS.length)]);
    }
    return b.toString();
  }

  /** Objects, arrays and every kind of scalar a payload holds, three levels deep at most. */
  private static JsonNode randomNode(Random random, int depth) {
    JsonNodeFactory f = JsonNodeFactory.instance;
    switch (random.nextInt(depth < 3 ? 11 : 9)) {
      case 0:
        return f.textNode(randomText(random, 6));
      case 1:
        return f.numberNode(random.nextInt());
      case 2:
        return f.numberNode(random.nextLong());
      case 3:
        return f.numberNode(random.nextDouble() * Math.pow(10, random.nextInt(40) - 20));
      case 4:
        return f.numberNode(random.nextFloat() * 1e9f);
      case 5:
        return f.numberNode(new BigDecimal(random.nextGaussian()).scaleByPowerOfTen(-30));
      case 6:
        return f.numberNode(BigInteger.valueOf(random.nextLong()).shiftLeft(70));
      case 7:
        return f.booleanNode(random.nextBoolean());
      case 8:
        return f.nullNode();
      case 9:
        ArrayNode a = f.arrayNode();
        for (int k = random.nextInt(4); k > 0; k--) {
          a.add(randomNode(random, depth + 1));
        }
        return a;
      default:
        ObjectNode o = f.objectNode();
        for (int k = random.nextInt(4); k > 0; k--) {
          o.set(randomText(random, 6), randomNode(random, depth + 1));
        }
        return o;
    }
  }
}
