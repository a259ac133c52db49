package dev.vigil.dialogue;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
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

  /** The phrase word that matches any word ending with it. */
  private static final String CONTRACTION = "n't";

  /**
   * A list of phrases, each split into its words once, and found by their first words: a text's
   * words are then looked up once each rather than once a phrase.
   */
  public static final class Compiled {
    private final List<String> phrases;
    private final List<List<String>> words;

    /** For each first word, the phrases (their places, ascending) that start with it. */
    private final Map<String, int[]> byFirstWord = new HashMap<>();

    /** The phrases that start with {@code n't}, which matches any word ending with it. */
    private final int[] byContraction;

    Compiled(List<String> phrases, List<List<String>> words) {
      this.phrases = List.copyOf(phrases);
      this.words = List.copyOf(words);
      Map<String, List<Integer>> starts = new HashMap<>();
      List<Integer> contraction = new ArrayList<>();
      for (int i = 0; i < this.words.size(); i++) {
        List<String> p = this.words.get(i);
        if (p.isEmpty()) {
          continue; // found nowhere
        }
        if (p.get(0).equals(CONTRACTION)) {
          contraction.add(i);
        } else {
          starts.computeIfAbsent(p.get(0), k -> new ArrayList<>()).add(i);
        }
      }
      starts.forEach((w, at) -> byFirstWord.put(w, ints(at)));
      byContraction = ints(contraction);
    }

    /** The phrases, in the order they are tried. */
    public List<String> phrases() {
      return phrases;
    }

    /** Each phrase's words. */
    public List<List<String>> words() {
      return words;
    }

    private static int[] ints(List<Integer> list) {
      int[] a = new int[list.size()];
      for (int i = 0; i < a.length; i++) {
        a[i] = list.get(i);
      }
      return a;
    }
  }

  /**
   * A set of words, looked up from a text's characters: {@link #forEachWordIn} finds the text's
   * words that it holds without making a string of every word.
   */
  public static final class Lexicon {
    private final Set<String> words;
    private final String[] table;
    private final int[] hashes;
    private final int mask;

    /** Bit {@code n} set when a word of {@code n} characters (under 64) is held. */
    private final long lengths;

    /** Whether a word of 64 characters or more is held. */
    private final boolean longWords;

    private Lexicon(Set<String> words) {
      this.words = Set.copyOf(words);
      int size = Integer.highestOneBit(Math.max(4, this.words.size() * 4) - 1) << 1;
      table = new String[size];
      hashes = new int[size];
      mask = size - 1;
      long lens = 0;
      boolean longs = false;
      for (String w : this.words) {
        int h = w.hashCode();
        int slot = spread(h) & mask;
        while (table[slot] != null) {
          slot = (slot + 1) & mask;
        }
        table[slot] = w;
        hashes[slot] = h;
        if (w.length() < 64) {
          lens |= 1L << w.length();
        } else {
          longs = true;
        }
      }
      lengths = lens;
      longWords = longs;
    }

    /** The lexicon of these words. */
    public static Lexicon of(Collection<String> words) {
      return new Lexicon(new HashSet<>(words));
    }

    /** Whether it holds {@code word}. */
    public boolean contains(String word) {
      return words.contains(word);
    }

    /**
     * The held word that the characters of {@code text} from {@code start} to {@code end}, ASCII,
     * spell once lower-cased, or null.
     */
    private String at(String text, int start, int end) {
      int length = end - start;
      if (length < 64 ? (lengths >>> length & 1) == 0 : !longWords) {
        return null;
      }
      int h = 0;
      for (int i = start; i < end; i++) {
        h = 31 * h + lowerAscii(text.charAt(i));
      }
      for (int slot = spread(h) & mask; table[slot] != null; slot = (slot + 1) & mask) {
        String w = table[slot];
        if (hashes[slot] == h && w.length() == length && spells(w, text, start)) {
          return w;
        }
      }
      return null;
    }

    private static boolean spells(String w, String text, int start) {
      for (int j = 0, n = w.length(); j < n; j++) {
        if (w.charAt(j) != lowerAscii(text.charAt(start + j))) {
          return false;
        }
      }
      return true;
    }

    private static int spread(int h) {
      return h ^ (h >>> 16);
    }

    private static char lowerAscii(char c) {
      return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
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

  /**
   * Hands on, in order, the words of a text ({@link #forEachWord}) that {@code lexicon} holds: the
   * same words as {@code forEachWord} followed by {@link Lexicon#contains}, without making a string
   * of the others in an ASCII text.
   */
  public static void forEachWordIn(String text, Lexicon lexicon, Consumer<String> found) {
    if (!isAscii(text)) {
      forEachWord(
          text,
          w -> {
            if (lexicon.contains(w)) {
              found.accept(w);
            }
          });
      return;
    }
    asciiSpans(
        text,
        (start, end) -> {
          String w = lexicon.at(text, start, end);
          if (w != null) {
            found.accept(w);
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
    asciiSpans(
        text, (start, end) -> word.accept(text.substring(start, end).toLowerCase(Locale.ROOT)));
  }

  /** Where a word of an ASCII text lies: from {@code start} to {@code end}. */
  private interface Span {
    void at(int start, int end);
  }

  /**
   * The places of an ASCII text's words, in order: runs of {@code [A-Za-z0-9']} without the
   * apostrophes at either end, those left empty passed over.
   */
  private static void asciiSpans(String text, Span span) {
    int n = text.length();
    int i = 0;
    while (i < n) {
      while (i < n && !isAsciiWordChar(text.charAt(i))) {
        i++;
      }
      int start = i;
      while (i < n && isAsciiWordChar(text.charAt(i))) {
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
        span.at(start, end);
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

  /**
   * The first phrase of {@code phrases} (in their order) found anywhere in {@code words}, or null.
   */
  public static String first(List<String> words, Compiled phrases) {
    int best = Integer.MAX_VALUE;
    for (int i = 0; i < words.size() && best > 0; i++) {
      String w = words.get(i);
      int[] starting = phrases.byFirstWord.get(w);
      if (starting != null) {
        best = firstAt(words, i, starting, phrases, best);
      }
      if (phrases.byContraction.length > 0 && w.endsWith(CONTRACTION)) {
        best = firstAt(words, i, phrases.byContraction, phrases, best);
      }
    }
    return best == Integer.MAX_VALUE ? null : phrases.phrases.get(best);
  }

  /**
   * The first of {@code candidates} before {@code best} that stands in {@code words} at {@code at}.
   */
  private static int firstAt(
      List<String> words, int at, int[] candidates, Compiled phrases, int best) {
    for (int k : candidates) {
      if (k >= best) {
        break;
      }
      List<String> p = phrases.words.get(k);
      if (at + p.size() <= words.size() && standsAt(words, p, at)) {
        return k;
      }
    }
    return best;
  }

  private static boolean standsAt(List<String> words, List<String> p, int at) {
    for (int j = 0; j < p.size(); j++) {
      if (!matches(words.get(at + j), p.get(j))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether a word is a phrase word; the phrase word {@code n't} matches any word ending with it.
   */
  public static boolean matches(String word, String phraseWord) {
    if (phraseWord.equals(CONTRACTION)) {
      return word.endsWith(CONTRACTION);
    }
    return word.equals(phraseWord);
  }
}
