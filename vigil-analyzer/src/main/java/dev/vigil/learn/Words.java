package dev.vigil.learn;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The words of a message as features see them: lower case, runs of letters and digits (an apostrophe inside a word
 * stays: {@code don't}), then every word and every pair of neighbouring words ({@code order cancelled}).
 */
final class Words {
  private Words() {}

  /** The words of a text, lower case. */
  static List<String> of(String text) {
    List<String> out = new ArrayList<>();
    String t = text.toLowerCase(Locale.ROOT).replace('\u2019', '\'');
    int start = -1;
    for (int i = 0; i <= t.length(); i++) {
      char c = i < t.length() ? t.charAt(i) : ' ';
      boolean in = Character.isLetterOrDigit(c) || c == '\'' && start >= 0;
      if (in && start < 0) {
        start = i;
      } else if (!in && start >= 0) {
        String w = t.substring(start, i);
        while (w.endsWith("'")) {
          w = w.substring(0, w.length() - 1);
        }
        if (!w.isEmpty()) {
          out.add(w);
        }
        start = -1;
      }
    }
    return out;
  }

  /** The 1- and 2-grams of a text, in order: each word, then each pair joined by a space. */
  static List<String> grams(String text) {
    List<String> words = of(text);
    List<String> out = new ArrayList<>(words.size() * 2);
    out.addAll(words);
    for (int i = 1; i < words.size(); i++) {
      out.add(words.get(i - 1) + " " + words.get(i));
    }
    return out;
  }
}
