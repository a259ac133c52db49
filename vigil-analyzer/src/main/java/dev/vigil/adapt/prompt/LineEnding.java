package dev.vigil.adapt.prompt;

/**
 * A line terminator as it appears in the prompt file; the content Vigil writes uses the file's own.
 */
public enum LineEnding {
  /** {@code \n}: Unix. */
  LF("\n"),
  /** {@code \r\n}: Windows. */
  CRLF("\r\n"),
  /** {@code \r} alone: classic Mac. */
  CR("\r");

  private final String chars;

  LineEnding(String chars) {
    this.chars = chars;
  }

  /** The terminator's characters. */
  public String chars() {
    return chars;
  }

  /**
   * The terminator of a line ending at {@code bytes[contentEnd, end)}, or null for a last line
   * without one.
   */
  static LineEnding of(byte[] bytes, int contentEnd, int end) {
    return switch (end - contentEnd) {
      case 0 -> null;
      case 2 -> CRLF;
      default -> bytes[contentEnd] == '\n' ? LF : CR;
    };
  }
}
