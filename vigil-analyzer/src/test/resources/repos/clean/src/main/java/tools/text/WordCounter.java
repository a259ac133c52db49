package tools.text;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** Counts words in a text: no time, no scheduling, no remote call, no confirmation. */
public final class WordCounter {

  /** Each word, lower case, with how often it occurs. */
  public Map<String, Integer> count(String text) {
    Map<String, Integer> counts = new TreeMap<>();
    for (String word : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
      if (!word.isEmpty()) {
        counts.merge(word, 1, Integer::sum);
      }
    }
    return counts;
  }

  /** The most frequent word, or the empty string. */
  public String top(String text) {
    return count(text).entrySet().stream()
        .max(Map.Entry.comparingByValue())
        .map(Map.Entry::getKey)
        .orElse("");
  }
}
