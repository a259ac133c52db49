package dev.vigil.adapt.prompt;

import java.util.ArrayList;
import java.util.List;

/**
 * One line of a prompt, as byte offsets: {@code [start, contentEnd)} is its text, {@code
 * [contentEnd, end)} its terminator ({@code \n}, {@code \r\n} or {@code \r}; empty for a last line
 * without one).
 *
 * <p>Lines are split on bytes, not characters: in UTF-8 the bytes {@code \n} and {@code \r} never
 * occur inside a multi-byte character, so the offsets are exact and every byte of the file belongs
 * to exactly one line.
 */
record Line(int number, int start, int contentEnd, int end) {

  /**
   * The lines of a file; an empty file has none, and a terminator at the very end opens no further
   * line.
   */
  static List<Line> split(byte[] bytes) {
    List<Line> lines = new ArrayList<>();
    int start = 0;
    int i = 0;
    while (i < bytes.length) {
      byte b = bytes[i];
      if (b == '\n' || b == '\r') {
        int end = b == '\r' && i + 1 < bytes.length && bytes[i + 1] == '\n' ? i + 2 : i + 1;
        lines.add(new Line(lines.size() + 1, start, i, end));
        start = end;
        i = end;
      } else {
        i++;
      }
    }
    if (start < bytes.length) {
      lines.add(new Line(lines.size() + 1, start, bytes.length, bytes.length));
    }
    return lines;
  }

  /** The marker this line is, or null. */
  Marker marker(byte[] bytes) {
    return Marker.of(bytes, start, contentEnd);
  }

  /** This line's terminator, or null when it has none. */
  LineEnding ending(byte[] bytes) {
    return LineEnding.of(bytes, contentEnd, end);
  }
}
