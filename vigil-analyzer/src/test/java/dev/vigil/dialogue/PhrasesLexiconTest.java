package dev.vigil.dialogue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link Phrases#forEachWordIn}, which looks a text's words up in a {@link Phrases.Lexicon} without
 * making a string of each, against its definition: the words {@link Phrases#forEachWord} hands on
 * that the lexicon holds.
 */
class PhrasesLexiconTest {
  /** Pieces of texts: words in several cases, apostrophes, separators, letters beyond ASCII. */
  private static final String[] PIECES = {
    "booked",
    "Booked",
    "BOOKED",
    "cancelled",
    "i've",
    "I'VE",
    "'",
    "'booked'",
    "n't",
    "don't",
    "order",
    "orders",
    "Ab",
    "BA",
    "aB",
    "7",
    "42",
    " ",
    ", ",
    ".",
    ":",
    "\"",
    "{",
    "-",
    "_",
    "\n",
    "é",
    "É",
    "İ",
    "ß",
    "’",
    "a".repeat(63),
    "a".repeat(64),
    "A".repeat(70),
    "x"
  };

  /** Entries of lexicons: words, and entries no word can spell (cases, spaces, empty). */
  private static final String[] ENTRIES = {
    "booked",
    "cancelled",
    "i've",
    "don't",
    "n't",
    "order",
    "ab",
    "ba",
    "7",
    "42",
    "é",
    "i̇",
    "ss",
    "Booked",
    "two words",
    "",
    "'booked",
    "a".repeat(63),
    "a".repeat(64),
    "a".repeat(70),
    "x",
    "ordersx",
    "Aa",
    "BB"
  };

  private static List<String> byDefinition(String text, Set<String> entries) {
    List<String> out = new ArrayList<>();
    Phrases.forEachWord(
        text,
        w -> {
          if (entries.contains(w)) {
            out.add(w);
          }
        });
    return out;
  }

  private static List<String> found(String text, Phrases.Lexicon lexicon) {
    List<String> out = new ArrayList<>();
    Phrases.forEachWordIn(text, lexicon, out::add);
    return out;
  }

  @Test
  void findsTheHeldWordsOfATextInOrderWhateverTheirCase() {
    Phrases.Lexicon l = Phrases.Lexicon.of(List.of("booked", "i've", "n't"));
    assertEquals(
        List.of("booked", "i've", "booked"),
        found("Booked! 'I've' re-BOOKED it, didn't I? bookedx", l));
    assertEquals(List.of(), found("nothing here", l));
    assertEquals(List.of("booked"), found("BOOKÉD, booked", l));
  }

  @Test
  void agreesWithItsDefinitionOnRandomTextsAndLexicons() {
    SplittableRandom random = new SplittableRandom(41);
    int foundAny = 0;
    for (int n = 0; n < 20_000; n++) {
      Set<String> entries = new HashSet<>();
      for (int k = random.nextInt(12); k > 0; k--) {
        entries.add(ENTRIES[random.nextInt(ENTRIES.length)]);
      }
      StringBuilder text = new StringBuilder();
      for (int k = random.nextInt(16); k > 0; k--) {
        text.append(PIECES[random.nextInt(PIECES.length)]);
      }
      List<String> expected = byDefinition(text.toString(), entries);
      assertEquals(
          expected, found(text.toString(), Phrases.Lexicon.of(entries)), text + " in " + entries);
      foundAny += expected.isEmpty() ? 0 : 1;
    }
    assertTrue(foundAny > 1_000, foundAny + " texts with a word of the lexicon");
  }

  @Test
  void findsEveryWordOfALargeLexiconAndNoOther() {
    Set<String> entries = new HashSet<>();
    for (int i = 0; i < 5_000; i++) {
      entries.add("w" + Integer.toString(i * 7919, 36));
    }
    Phrases.Lexicon l = Phrases.Lexicon.of(entries);
    for (String w : entries) {
      assertEquals(List.of(w), found("[" + w.toUpperCase(Locale.ROOT) + "]", l), w);
      assertEquals(List.of(), found("v" + w.substring(1), l), w);
    }
  }
}
