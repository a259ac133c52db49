package dev.vigil.diagnose.detect;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whole-word phrase matching for the conversation detectors (SPEC section 4.4b): a text is lower-cased and split into
 * words (letters, digits and apostrophes; typographic apostrophes read as {@code '}), and a phrase matches where its
 * words stand in a row. A phrase word starting with an apostrophe ({@code n't}) matches any word ending with it.
 */
final class Phrases {
  private Phrases() {}

  /** The words of a text, lower case. */
  static List<String> words(String text) {
    List<String> out = new ArrayList<>();
    String normalized = text.toLowerCase(Locale.ROOT).replace('\u2019', '\'').replace('\u2018', '\'');
    for (String w : normalized.split("[^\\p{L}\\p{N}']+")) {
      String t = strip(w);
      if (!t.isEmpty()) {
        out.add(t);
      }
    }
    return out;
  }

  private static String strip(String w) {
    int start = 0;
    int end = w.length();
    while (start < end && w.charAt(start) == '\'') {
      start++;
    }
    while (end > start && w.charAt(end - 1) == '\'') {
      end--;
    }
    return w.substring(start, end);
  }

  /** The first phrase of {@code phrases} found in {@code words}, or null. */
  static String first(List<String> words, List<String> phrases) {
    for (String phrase : phrases) {
      if (indexOf(words, phrase, 0) >= 0) {
        return phrase;
      }
    }
    return null;
  }

  /** Where {@code phrase} starts in {@code words} at or after {@code from}, or -1. */
  static int indexOf(List<String> words, String phrase, int from) {
    List<String> p = words(phrase);
    if (p.isEmpty()) {
      return -1;
    }
    for (int i = Math.max(from, 0); i + p.size() <= words.size(); i++) {
      boolean all = true;
      for (int j = 0; j < p.size() && all; j++) {
        all = matches(words.get(i + j), p.get(j));
      }
      if (all) {
        return i;
      }
    }
    return -1;
  }

  /** Whether a word is a phrase word; the phrase word {@code n't} matches any word ending with it. */
  static boolean matches(String word, String phraseWord) {
    if (phraseWord.equals("n't")) {
      return word.endsWith("n't");
    }
    return word.equals(phraseWord);
  }
}
