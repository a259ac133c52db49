package dev.vigil.observe.writer;

import java.util.SplittableRandom;

/**
 * The texts the writer's equivalence tests build random values from ({@link SnapshotValuesTest},
 * {@link CopyValuesTest}): strings the redaction patterns change or nearly change, strings that
 * need escaping or more than ASCII, names that are secret, long, empty or not ASCII, and the size
 * limits they are written under.
 */
final class Samples {
  /** Size limits: most values cut at the first, few at the last. */
  static final int[] LIMITS = {40, 200, 4096};

  /** String values. */
  static final String[] WORDS = {
    "Paris",
    "sk-abcdefghijklmnopqrstu",
    "Bearer abc.def",
    "é ß 日本",
    "",
    "a\"quote\\",
    "\n\t\u0001",
    "x".repeat(70),
    "AKIAABCDEFGHIJKLMNOP",
    "ghp_" + "a".repeat(36),
    "asia trip",
    "\uD83D\uDE00"
  };

  /** Property names. */
  static final String[] NAMES = {
    "city",
    "password",
    "apiKey",
    "Token",
    "days",
    "note",
    "é",
    "",
    "nested",
    "authorization",
    "n".repeat(64),
    "n".repeat(70),
    "\u00F1".repeat(28),
    "\u00F1".repeat(30),
    "secret_\u00F1"
  };

  private Samples() {}

  /** One of {@link #WORDS}. */
  static String word(SplittableRandom r) {
    return WORDS[r.nextInt(WORDS.length)];
  }

  /** One of {@link #NAMES}. */
  static String name(SplittableRandom r) {
    return NAMES[r.nextInt(NAMES.length)];
  }
}
