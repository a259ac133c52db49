package dev.vigil.observe;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * Reads and writes the event timestamp {@code ts} (SPEC sections 2 and 4.1).
 *
 * <p>Written form: UTC, ISO-8601, always with microseconds ({@code 2026-11-22T10:15:30.123456Z}), with nanoseconds
 * only when the instant has sub-microsecond digits. Read form: any ISO-8601 date-time with an offset ({@code Z},
 * {@code +02:00}), normalized to UTC; or a naive local date-time ({@code 2025-10-31T23:59:59} or
 * {@code 2025-10-31 23:59:59}), read in a given zone and flagged as naive so that callers can count it.
 */
public final class Timestamps {
  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss").withZone(ZoneOffset.UTC);

  private Timestamps() {}

  /** A parsed timestamp and whether it was naive (had no offset and was read in the assumed zone). */
  public record Reading(Instant instant, boolean naive) {}

  /** Formats an instant as UTC ISO-8601 with at least microsecond precision. */
  public static String format(Instant ts) {
    StringBuilder sb = new StringBuilder(30);
    SECONDS.formatTo(ts, sb);
    int nanos = ts.getNano();
    sb.append('.');
    if (nanos % 1000 == 0) {
      appendPadded(sb, nanos / 1000, 6);
    } else {
      appendPadded(sb, nanos, 9);
    }
    return sb.append('Z').toString();
  }

  private static void appendPadded(StringBuilder sb, int value, int width) {
    String digits = Integer.toString(value);
    for (int i = digits.length(); i < width; i++) {
      sb.append('0');
    }
    sb.append(digits);
  }

  /**
   * Parses a timestamp.
   *
   * @param text       the {@code ts} value
   * @param assumeZone the zone a naive timestamp is read in
   * @throws DateTimeException when the text is neither form
   */
  public static Reading parse(String text, ZoneId assumeZone) {
    String iso = text.length() > 10 && text.charAt(10) == ' '
        ? text.substring(0, 10) + 'T' + text.substring(11)
        : text;
    if (hasOffset(iso)) {
      return new Reading(OffsetDateTime.parse(iso, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant(), false);
    }
    try {
      LocalDateTime local = LocalDateTime.parse(iso, DateTimeFormatter.ISO_LOCAL_DATE_TIME);
      return new Reading(local.atZone(assumeZone).toInstant(), true);
    } catch (DateTimeParseException e) {
      throw new DateTimeException("not an ISO-8601 date-time: \"" + text + "\"", e);
    }
  }

  /** True when the part after the date carries {@code Z} or a {@code +hh:mm}/{@code -hh:mm} offset. */
  private static boolean hasOffset(String iso) {
    int t = iso.indexOf('T');
    if (t < 0) {
      return false;
    }
    for (int i = t + 1; i < iso.length(); i++) {
      char c = iso.charAt(i);
      if (c == 'Z' || c == 'z' || c == '+' || c == '-') {
        return true;
      }
    }
    return false;
  }
}
