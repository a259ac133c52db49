package dev.vigil.observe.agent;

/**
 * The syntax of the class and method names that the configuration's values hold ({@code
 * vigil.methods.include}, {@code vigil.kinds}), checked one character at a time: a name begins with
 * a letter, {@code _} or {@code $} and goes on with those and digits. These checks run in {@code
 * premain}, where compiling a regular expression costs milliseconds of a cold JVM
 * (docs/DESIGN.md#the-start-path).
 */
final class JavaNames {
  private JavaNames() {}

  /** Whether {@code s} is one name: {@code [\p{L}_$][\p{L}\p{N}_$]*}. */
  static boolean isName(String s) {
    return isName(s, 0, s.length(), false);
  }

  /** Whether {@code s} is names joined by single dots, such as a fully qualified class name. */
  static boolean isQualifiedName(String s) {
    int from = 0;
    while (true) {
      int dot = s.indexOf('.', from);
      int end = dot < 0 ? s.length() : dot;
      if (!isName(s, from, end, false)) {
        return false;
      }
      if (dot < 0) {
        return true;
      }
      from = dot + 1;
    }
  }

  /**
   * Whether {@code s[from, to)} is a name; with {@code dots}, a dot may stand anywhere after its
   * first character.
   */
  static boolean isName(String s, int from, int to, boolean dots) {
    if (from >= to) {
      return false;
    }
    for (int i = from; i < to; ) {
      int c = s.codePointAt(i);
      boolean ok = Character.isLetter(c) || c == '_' || c == '$';
      if (i > from) {
        ok |= isNumber(c) || (dots && c == '.');
      }
      if (!ok) {
        return false;
      }
      i += Character.charCount(c);
    }
    return true;
  }

  /** Whether {@code c} is in one of the Unicode number categories ({@code \p{N}}). */
  private static boolean isNumber(int c) {
    int type = Character.getType(c);
    return type == Character.DECIMAL_DIGIT_NUMBER
        || type == Character.LETTER_NUMBER
        || type == Character.OTHER_NUMBER;
  }
}
