package dev.vigil.watch;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the durations of {@code watch}'s options: a whole number and a unit, {@code 500ms}, {@code
 * 30s}, {@code 10m}, {@code 1h}, {@code 1d}.
 */
public final class Durations {
  private static final Pattern SHAPE = Pattern.compile("(\\d{1,9})(ms|s|m|h|d)");

  private Durations() {}

  /**
   * Parses a positive duration.
   *
   * @param option the option it came from, named in the error
   * @throws IllegalArgumentException naming the option and the value
   */
  public static Duration parse(String text, String option) {
    Matcher m = SHAPE.matcher(text == null ? "" : text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          option
              + " \""
              + text
              + "\" is not a duration: write a whole number and a "
              + "unit (ms, s, m, h, d), e.g. 30s, 10m, 1h");
    }
    long n = Long.parseLong(m.group(1));
    if (n == 0) {
      throw new IllegalArgumentException(option + " \"" + text + "\" must be longer than zero");
    }
    return switch (m.group(2)) {
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      case "h" -> Duration.ofHours(n);
      default -> Duration.ofDays(n);
    };
  }
}
