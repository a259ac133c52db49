package dev.vigil.dialogue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link Phrases#first}, which finds phrases by their first words, against its definition: the
 * first phrase, in the list's order, whose words stand in a row somewhere in the text's words.
 */
class PhrasesFirstTest {
  private static final String[] VOCABULARY = {
    "no", "not", "that's", "wrong", "i", "said", "don't", "didn't", "can't", "n't", "yes", "please",
    "go", "ahead", "again", "it", "is", "the", "order", "ok"
  };

  /** The definition: each phrase in turn, looked for at every place. */
  private static String byDefinition(List<String> words, List<String> phrases) {
    for (String phrase : phrases) {
      List<String> p = Phrases.words(phrase);
      for (int i = 0; !p.isEmpty() && i + p.size() <= words.size(); i++) {
        boolean all = true;
        for (int j = 0; j < p.size() && all; j++) {
          all = Phrases.matches(words.get(i + j), p.get(j));
        }
        if (all) {
          return phrase;
        }
      }
    }
    return null;
  }

  @Test
  void findsTheFirstPhraseInTheListsOrderWhereverItStands() {
    Phrases.Compiled c = Phrases.compile(List.of("go ahead", "that's wrong", "no"));
    assertEquals("go ahead", Phrases.first(Phrases.words("No, no: that's wrong. Go ahead."), c));
    assertEquals("that's wrong", Phrases.first(Phrases.words("no... that's wrong"), c));
    assertNull(Phrases.first(Phrases.words("go on, that is right"), c));
    Phrases.Compiled contraction = Phrases.compile(List.of("n't want", "don't"));
    assertEquals("n't want", Phrases.first(Phrases.words("I don't want it"), contraction));
    assertEquals("n't want", Phrases.first(Phrases.words("I didn't want it"), contraction));
    assertEquals("don't", Phrases.first(Phrases.words("don't"), contraction));
  }

  @Test
  void agreesWithItsDefinitionOnRandomTextsAndPhrases() {
    SplittableRandom random = new SplittableRandom(37);
    int found = 0;
    for (int n = 0; n < 20_000; n++) {
      List<String> phrases = new ArrayList<>();
      for (int k = random.nextInt(8); k > 0; k--) {
        phrases.add(text(random, random.nextInt(4)));
      }
      List<String> words = Phrases.words(text(random, random.nextInt(14)));
      String expected = byDefinition(words, phrases);
      assertEquals(
          expected,
          Phrases.first(words, Phrases.compile(phrases)),
          () -> "phrases " + phrases + " in " + words);
      found += expected != null ? 1 : 0;
    }
    assertTrue(found > 2_000 && found < 18_000, "found in " + found + " of 20,000");
  }

  private static String text(SplittableRandom random, int words) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < words; i++) {
      s.append(i == 0 ? "" : random.nextBoolean() ? " " : ", ");
      s.append(VOCABULARY[random.nextInt(VOCABULARY.length)]);
    }
    return s.toString();
  }
}
