package dev.vigil.adapt.code;

/**
 * One line of the repository that a strategy may care about.
 *
 * @param file path relative to {@code --repo}, with {@code /} separators
 * @param line 1-based line number
 * @param category what the line is about
 * @param text the line, trimmed (at most 200 characters)
 */
public record Hotspot(String file, int line, Category category, String text) {

  /** {@code file:line}, as a report prints it. */
  public String location() {
    return file + ":" + line;
  }
}
