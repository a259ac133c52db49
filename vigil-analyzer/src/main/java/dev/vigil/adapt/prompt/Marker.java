package dev.vigil.adapt.prompt;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The four markers of a prompt file (docs/ADAPTATION.md#prompt-adaptation).
 *
 * <p>A line is a marker when, after a UTF-8 byte-order mark at the very start of the file and any
 * spaces and tabs on either side are set aside, it is exactly the marker's text (case-sensitive).
 * Anything else on the line, a quote, a backtick, a third {@code #}, a word, makes it ordinary
 * text: a sentence that quotes a marker is not one.
 */
enum Marker {
  /** Opens the core identity, which Vigil never changes. */
  BEGIN_CORE("## BEGIN_CORE_IDENTITY"),
  /** Closes the core identity. */
  END_CORE("## END_CORE_IDENTITY"),
  /** Opens the adaptive section, whose content Vigil replaces. */
  BEGIN_ADAPTIVE("## BEGIN_ADAPTIVE_SECTION"),
  /** Closes the adaptive section. */
  END_ADAPTIVE("## END_ADAPTIVE_SECTION");

  private static final Marker[] ALL = values();
  private static final byte[] BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};

  private final String text;

  // never changed after the constructor, and never handed out
  @SuppressWarnings("ImmutableEnumChecker")
  private final byte[] bytes;

  Marker(String text) {
    this.text = text;
    this.bytes = text.getBytes(StandardCharsets.US_ASCII);
  }

  /** The marker as it stands on its line. */
  public String text() {
    return text;
  }

  /**
   * The marker that the line {@code bytes[start, end)} (without its line terminator) is, or null
   * when the line is ordinary text.
   */
  public static Marker of(byte[] bytes, int start, int end) {
    if (start == 0
        && end >= BOM.length
        && bytes[0] == BOM[0]
        && bytes[1] == BOM[1]
        && bytes[2] == BOM[2]) {
      start = BOM.length;
    }
    while (start < end && isBlank(bytes[start])) {
      start++;
    }
    while (end > start && isBlank(bytes[end - 1])) {
      end--;
    }
    for (Marker m : ALL) {
      byte[] b = m.bytes;
      if (end - start == b.length && Arrays.equals(bytes, start, end, b, 0, b.length)) {
        return m;
      }
    }
    return null;
  }

  /** True when the text, taken as one line, is a marker. */
  public static boolean isMarkerLine(String line) {
    byte[] b = line.getBytes(StandardCharsets.UTF_8);
    return of(b, 0, b.length) != null;
  }

  private static boolean isBlank(byte b) {
    return b == ' ' || b == '\t';
  }
}
