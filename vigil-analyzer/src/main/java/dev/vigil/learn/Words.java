package dev.vigil.learn;

import dev.vigil.dialogue.Phrases;
import java.util.ArrayList;
import java.util.List;

/**
 * The words of a message as features see them: its words as the detectors read them ({@link
 * Phrases#words}: lower case, an apostrophe inside a word kept), then every pair of neighbouring
 * words ({@code order cancelled}).
 */
final class Words {
  private Words() {}

  /**
   * The 1- and 2-grams of a text's words ({@link Phrases#words}), in order: each word, then each
   * pair joined by a space.
   */
  static List<String> grams(List<String> words) {
    List<String> out = new ArrayList<>(words.size() * 2);
    out.addAll(words);
    for (int i = 1; i < words.size(); i++) {
      out.add(words.get(i - 1) + " " + words.get(i));
    }
    return out;
  }
}
