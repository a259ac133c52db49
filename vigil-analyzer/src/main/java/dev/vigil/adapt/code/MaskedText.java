package dev.vigil.adapt.code;

import java.util.ArrayList;
import java.util.List;

/**
 * A source's text for the regex {@link HotspotScanner}: comments and the contents of string,
 * character and text-block literals are replaced by spaces (line breaks kept), so that patterns see
 * code only; offsets are the same in both texts, and a match's line is one lookup away.
 */
final class MaskedText {
  /** The text as it is. */
  final String text;

  /** {@link #text} with comments and literal contents replaced by spaces. */
  final String masked;

  private final int[] lineStarts;

  private MaskedText(String text) {
    this.text = text;
    this.masked = mask(text);
    List<Integer> starts = new ArrayList<>(List.of(0));
    for (int i = 0; i < text.length(); i++) {
      if (text.charAt(i) == '\n' && i + 1 < text.length()) {
        starts.add(i + 1);
      }
    }
    this.lineStarts = starts.stream().mapToInt(Integer::intValue).toArray();
  }

  static MaskedText of(String text) {
    return new MaskedText(text);
  }

  /** 1-based line of an offset. */
  int lineOf(int pos) {
    int lo = 0;
    int hi = lineStarts.length - 1;
    while (lo < hi) {
      int mid = (lo + hi + 1) >>> 1;
      if (lineStarts[mid] <= pos) {
        lo = mid;
      } else {
        hi = mid - 1;
      }
    }
    return lo + 1;
  }

  /** The text of a 1-based line, without its line break. */
  String line(int number) {
    return text.substring(lineStarts[number - 1], lineEnd(lineStarts[number - 1]))
        .replace("\r", "");
  }

  /** The masked text of a 1-based line. */
  String maskedLine(int number) {
    return masked.substring(lineStarts[number - 1], lineEnd(lineStarts[number - 1]));
  }

  private int lineEnd(int pos) {
    int nl = text.indexOf('\n', pos);
    return nl < 0 ? text.length() : nl;
  }

  /** Comments and literal contents replaced by spaces; quotes and line breaks stay. */
  static String mask(String s) {
    char[] m = s.toCharArray();
    int n = s.length();
    int i = 0;
    while (i < n) {
      char c = s.charAt(i);
      char next = i + 1 < n ? s.charAt(i + 1) : 0;
      if (c == '/' && next == '/') {
        int j = i;
        while (j < n && s.charAt(j) != '\n') {
          m[j++] = ' ';
        }
        i = j;
      } else if (c == '/' && next == '*') {
        int end = s.indexOf("*/", i + 2);
        end = end < 0 ? n : end + 2;
        blank(m, s, i, end);
        i = end;
      } else if (s.startsWith("\"\"\"", i)) {
        int k = i + 3;
        while (k < n && !s.startsWith("\"\"\"", k)) {
          k += s.charAt(k) == '\\' ? 2 : 1;
        }
        blank(m, s, i + 3, Math.min(k, n));
        i = Math.min(k + 3, n);
      } else if (c == '"' || c == '\'') {
        int k = i + 1;
        while (k < n && s.charAt(k) != c && s.charAt(k) != '\n') {
          k += s.charAt(k) == '\\' ? 2 : 1;
        }
        blank(m, s, i + 1, Math.min(k, n));
        i = Math.min(k + 1, n);
      } else {
        i++;
      }
    }
    return new String(m);
  }

  private static void blank(char[] m, String s, int from, int to) {
    for (int j = from; j < to; j++) {
      if (s.charAt(j) != '\n') {
        m[j] = ' ';
      }
    }
  }
}
