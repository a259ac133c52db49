package dev.vigil.dialogue;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Words and whole-word phrase matching, for the conversation detectors, the claim lexicon and the
 * model's words: a text is lower-cased and split into words (letters, digits and apostrophes;
 * typographic apostrophes read as {@code '}), and a phrase matches where its words stand in a row.
 * A phrase word starting with an apostrophe ({@code n't}) matches any word ending with it.
 */
public final class Phrases {
  /** The general categories of {@code \p{L}} and {@code \p{N}}, one bit each. */
  private static final int LETTER_OR_NUMBER =
      1 << Character.UPPERCASE_LETTER
          | 1 << Character.LOWERCASE_LETTER
          | 1 << Character.TITLECASE_LETTER
          | 1 << Character.MODIFIER_LETTER
          | 1 << Character.OTHER_LETTER
          | 1 << Character.DECIMAL_DIGIT_NUMBER
          | 1 << Character.LETTER_NUMBER
          | 1 << Character.OTHER_NUMBER;

  /**
   * A list of phrases, each split into its words once.
   *
   * @param phrases the phrases, in the order they are tried
   * @param words each phrase's words
   */
  public record Compiled(List<String> phrases, List<List<String>> words) {
    /** Copies the lists. */
    public Compiled {
      phrases = List.copyOf(phrases);
      words = List.copyOf(words);
    }
  }

  private Phrases() {}

  /** Splits each phrase into its words, once for every text it is looked for in. */
  public static Compiled compile(List<String> phrases) {
    List<List<String>> words = new ArrayList<>(phrases.size());
    phrases.forEach(p -> words.add(List.copyOf(words(p))));
    return new Compiled(phrases, words);
  }

  /** The words of a text, lower case. */
  public static List<String> words(String text) {
    List<String> out = new ArrayList<>();
    forEachWord(text, out::add);
    return out;
  }

  /** Hands on the words of a text, lower case, in order: those {@link #words} lists. */
  public static void forEachWord(String text, Consumer<String> word) {
    if (isAscii(text)) {
      asciiWords(text, word);
      return;
    }
    String normalized =
        text.toLowerCase(Locale.ROOT).replace('\u2019', '\'').replace('\u2018', '\'');
    runs(
        normalized,
        true,
        w -> {
          String t = strip(w);
          if (!t.isEmpty()) {
            word.accept(t);
          }
        });
  }

  private static boolean isAscii(String text) {
    for (int i = 0, n = text.length(); i < n; i++) {
      if (text.charAt(i) >= 0x80) {
        return false;
      }
    }
    return true;
  }

  /**
   * {@link #forEachWord} of an ASCII text, in one walk: there the letters and digits are {@code
   * [A-Za-z0-9]}, and lower case changes {@code A-Z} alone.
   */
  private static void asciiWords(String text, Consumer<String> word) {
    int n = text.length();
    int i = 0;
    while (i < n) {
      while (i < n && !isAsciiWordChar(text.charAt(i))) {
        i++;
      }
      int start = i;
      boolean upper = false;
      while (i < n && isAsciiWordChar(text.charAt(i))) {
        upper |= text.charAt(i) <= 'Z' && text.charAt(i) >= 'A';
        i++;
      }
      int end = i;
      while (start < end && text.charAt(start) == '\'') {
        start++;
      }
      while (end > start && text.charAt(end - 1) == '\'') {
        end--;
      }
      if (start < end) {
        String w = text.substring(start, end);
        word.accept(upper ? w.toLowerCase(Locale.ROOT) : w);
      }
    }
  }

  private static boolean isAsciiWordChar(char c) {
    return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '\'';
  }

  /**
   * The non-empty pieces of {@code text} between runs of what is neither a letter ({@code \p{L}})
   * nor a digit ({@code \p{N}}), nor an apostrophe when {@code apostrophes}, in order: the
   * non-empty pieces a regular expression {@code [^\p{L}\p{N}']+} splits it into, without the
   * regular expression.
   */
  public static void runs(String text, boolean apostrophes, Consumer<String> pieces) {
    int start = -1;
    int n = text.length();
    for (int i = 0; i < n; ) {
      int cp = text.codePointAt(i);
      boolean inWord =
          ((LETTER_OR_NUMBER >>> Character.getType(cp)) & 1) != 0 || (apostrophes && cp == '\'');
      if (inWord && start < 0) {
        start = i;
      } else if (!inWord && start >= 0) {
        pieces.accept(text.substring(start, i));
        start = -1;
      }
      i += Character.charCount(cp);
    }
    if (start >= 0) {
      pieces.accept(text.substring(start));
    }
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
  public static String first(List<String> words, Compiled phrases) {
    for (int i = 0; i < phrases.phrases().size(); i++) {
      if (indexOf(words, phrases.words().get(i), 0) >= 0) {
        return phrases.phrases().get(i);
      }
    }
    return null;
  }

  /**
   * Where the phrase of words {@code p} starts in {@code words} at or after {@code from}, or -1.
   */
  public static int indexOf(List<String> words, List<String> p, int from) {
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

  /**
   * Whether a word is a phrase word; the phrase word {@code n't} matches any word ending with it.
   */
  public static boolean matches(String word, String phraseWord) {
    if (phraseWord.equals("n't")) {
      return word.endsWith("n't");
    }
    return word.equals(phraseWord);
  }
}
