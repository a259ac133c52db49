package dev.vigil.report;

import java.util.Locale;

/**
 * A number with one decimal, as {@code String.format(Locale.ROOT, "%.1f", v)} writes it (the
 * shortest decimal form of the double rounded half up, a minus sign on any negative value, {@code
 * -0.0} included), written from {@link Double#toString} rather than through {@link
 * java.util.Formatter}: a chart has thousands of such numbers.
 */
final class OneDecimal {
  private OneDecimal() {}

  /** {@code v} with one decimal. */
  static String of(double v) {
    String s = Double.toString(Math.abs(v));
    int dot = s.indexOf('.');
    if (Double.isNaN(v) || Double.isInfinite(v) || s.indexOf('E') >= 0 || dot < 0) {
      return String.format(Locale.ROOT, "%.1f", v);
    }
    long tenths = Long.parseLong(s, 0, dot, 10) * 10 + (s.charAt(dot + 1) - '0');
    if (dot + 2 < s.length() && s.charAt(dot + 2) >= '5') {
      tenths++;
    }
    StringBuilder sb = new StringBuilder(s.length() + 2);
    if (Double.compare(v, 0.0) < 0) {
      sb.append('-');
    }
    return sb.append(tenths / 10).append('.').append(tenths % 10).toString();
  }
}
