package dev.vigil.observe.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The hand-written checks of names and kinds say what the regular expressions they replace said,
 * over every short string of an alphabet that mixes ASCII, letters and numbers beyond it (one
 * outside the basic plane) and the separators, and over random longer ones.
 */
class JavaNamesTest {
  private static final Pattern NAME = Pattern.compile("[\\p{L}_$][\\p{L}\\p{N}_$]*");
  private static final Pattern QUALIFIED =
      Pattern.compile("[\\p{L}_$][\\p{L}\\p{N}_$]*(\\.[\\p{L}_$][\\p{L}\\p{N}_$]*)*");
  private static final Pattern TARGET =
      Pattern.compile("[\\p{L}_$][\\p{L}\\p{N}_$.]*#[\\p{L}_$][\\p{L}\\p{N}_$]*");
  private static final Pattern KIND = Pattern.compile("[a-z0-9_]+(\\.[a-z0-9_]+)*");

  /** a, Z, 7, _, $, ., #, -, space, é, Arabic-Indic 3, Roman numeral XII, superscript 2, 𝒜. */
  private static final String[] ALPHABET = {
    "a", "Z", "7", "_", "$", ".", "#", "-", " ", "é", "\u0663", "\u216B", "\u00B2", "\uD835\uDC9C"
  };

  @Test
  void everyShortStringIsJudgedAsTheRegularExpressionsJudgeIt() {
    int[] matched = new int[4];
    for (int length = 0; length <= 4; length++) {
      int[] digits = new int[length];
      do {
        StringBuilder s = new StringBuilder();
        for (int d : digits) {
          s.append(ALPHABET[d]);
        }
        matched[check(s.toString())]++;
      } while (next(digits));
    }
    assertTrue(matched[1] > 1000 && matched[0] > 1000, "both answers were seen");
  }

  @Test
  void randomLongerStringsToo() {
    Random random = new Random(29);
    for (int i = 0; i < 20_000; i++) {
      StringBuilder s = new StringBuilder();
      int length = 1 + random.nextInt(12);
      for (int j = 0; j < length; j++) {
        s.append(ALPHABET[random.nextInt(ALPHABET.length)]);
      }
      check(s.toString());
    }
  }

  @Test
  void examples() {
    assertTrue(JavaNames.isQualifiedName("dev.vigil.demo.Robin"));
    assertFalse(JavaNames.isQualifiedName("dev..Robin"));
    assertFalse(JavaNames.isQualifiedName("dev.Robin."));
    assertTrue(JavaNames.isName("créer2"));
    assertFalse(JavaNames.isName("2go"));
    assertTrue(KindOverrides.isTarget("a.B#send"));
    assertFalse(KindOverrides.isTarget("#send"));
    assertTrue(KindOverrides.isKind("reminder.receipt"));
    assertFalse(KindOverrides.isKind("reminder..receipt"));
  }

  /** Checks {@code s} every way; 1 when it is a name, else 0. */
  private static int check(String s) {
    assertEquals(NAME.matcher(s).matches(), JavaNames.isName(s), s);
    assertEquals(QUALIFIED.matcher(s).matches(), JavaNames.isQualifiedName(s), s);
    assertEquals(TARGET.matcher(s).matches(), KindOverrides.isTarget(s), s);
    assertEquals(KIND.matcher(s).matches(), KindOverrides.isKind(s), s);
    return JavaNames.isName(s) ? 1 : 0;
  }

  private static boolean next(int[] digits) {
    for (int i = digits.length - 1; i >= 0; i--) {
      if (++digits[i] < ALPHABET.length) {
        return true;
      }
      digits[i] = 0;
    }
    return false;
  }
}
