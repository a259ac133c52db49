package dev.vigil.watch;

import java.time.Duration;

/**
 * {@code --on-thorns K/DURATION}: a pass as soon as {@code count} thorn-grade appraisals arrive
 * within {@code within}.
 *
 * @param count K, at least 1
 * @param within the sliding window, measured between event timestamps
 */
public record ThornRate(int count, Duration within) {
  /**
   * Parses {@code K/DURATION}, for example {@code 3/1m}.
   *
   * @throws IllegalArgumentException naming the option and the value
   */
  public static ThornRate parse(String text, String option) {
    int slash = text == null ? -1 : text.indexOf('/');
    if (slash < 0) {
      throw new IllegalArgumentException(
          option
              + " \""
              + text
              + "\" is not K/DURATION, e.g. 3/1m (three thorns "
              + "within a minute)");
    }
    int k;
    try {
      k = Integer.parseInt(text.substring(0, slash).trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          option + " \"" + text + "\": K must be a whole number, e.g. 3/1m");
    }
    if (k < 1) {
      throw new IllegalArgumentException(option + " \"" + text + "\": K must be at least 1");
    }
    try {
      return new ThornRate(k, Durations.parse(text.substring(slash + 1).trim(), "DURATION"));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(option + " \"" + text + "\": " + e.getMessage(), e);
    }
  }
}
