package dev.vigil.diagnose.detect;

import dev.vigil.dialogue.Phrases;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * The content words of a message (docs/DETECTORS.md, {@code failure_plateau}): lower case, split on
 * anything that is not a letter or digit, stop words and tokens without a letter or shorter than
 * three characters out, plurals and a few common endings folded ({@code reminders} → {@code
 * reminder}, {@code retries} → {@code retry}, {@code saved}/{@code saving} → {@code sav}), so that
 * two phrasings of one failure share their words.
 */
final class ContentWords {
  private static final Set<String> STOP =
      Set.of(
          "a",
          "about",
          "after",
          "again",
          "all",
          "also",
          "am",
          "an",
          "and",
          "any",
          "are",
          "as",
          "at",
          "be",
          "because",
          "been",
          "before",
          "being",
          "but",
          "by",
          "can",
          "cannot",
          "could",
          "did",
          "do",
          "does",
          "doing",
          "down",
          "during",
          "each",
          "for",
          "from",
          "further",
          "had",
          "has",
          "have",
          "having",
          "he",
          "her",
          "here",
          "his",
          "how",
          "i",
          "if",
          "in",
          "into",
          "is",
          "it",
          "its",
          "just",
          "me",
          "more",
          "most",
          "my",
          "no",
          "nor",
          "not",
          "now",
          "of",
          "off",
          "on",
          "once",
          "only",
          "or",
          "other",
          "our",
          "out",
          "over",
          "own",
          "please",
          "same",
          "she",
          "should",
          "so",
          "some",
          "still",
          "such",
          "than",
          "that",
          "the",
          "their",
          "them",
          "then",
          "there",
          "these",
          "they",
          "this",
          "those",
          "through",
          "to",
          "too",
          "under",
          "until",
          "up",
          "very",
          "was",
          "we",
          "were",
          "what",
          "when",
          "where",
          "which",
          "while",
          "who",
          "why",
          "will",
          "with",
          "would",
          "you",
          "your",
          "yet",
          "try",
          "tried",
          "trying",
          "error",
          "failed",
          "fail",
          "failure",
          "exception",
          "unable",
          "couldn");

  private ContentWords() {}

  /** The content words of {@code message}, sorted. */
  public static Set<String> of(String message) {
    Set<String> out = new TreeSet<>();
    Phrases.runs(
        message.toLowerCase(Locale.ROOT),
        false,
        token -> {
          if (token.length() < 3 || STOP.contains(token) || !hasLetter(token)) {
            return;
          }
          String stem = stem(token);
          if (stem.length() >= 3 && !STOP.contains(stem)) {
            out.add(stem);
          }
        });
    return out;
  }

  /** Whether one of the characters of {@code token} is a letter. */
  private static boolean hasLetter(String token) {
    for (int i = 0, n = token.length(); i < n; i++) {
      if (Character.isLetter(token.charAt(i))) {
        return true;
      }
    }
    return false;
  }

  /** Folds plurals and the {@code -ed}/{@code -ing} endings. */
  static String stem(String w) {
    String s = w;
    if (s.endsWith("ies") && s.length() > 4) {
      s = s.substring(0, s.length() - 3) + "y";
    } else if (s.endsWith("sses")
        || s.endsWith("xes")
        || s.endsWith("ches")
        || s.endsWith("shes")) {
      s = s.substring(0, s.length() - 2);
    } else if (s.endsWith("s")
        && !s.endsWith("ss")
        && !s.endsWith("us")
        && !s.endsWith("is")
        && s.length() > 3) {
      s = s.substring(0, s.length() - 1);
    }
    if (s.endsWith("ing") && s.length() > 5) {
      s = s.substring(0, s.length() - 3);
    } else if (s.endsWith("ed") && s.length() > 4) {
      s = s.substring(0, s.length() - 2);
    }
    if (s.endsWith("e") && s.length() > 4) {
      s = s.substring(0, s.length() - 1);
    }
    return s;
  }
}
