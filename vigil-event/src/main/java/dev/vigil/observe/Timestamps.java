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
 * Reads and writes the event timestamp {@code ts} (docs/DESIGN.md#the-event,
 * docs/DESIGN.md#the-window).
 *
 * <p>Written form: UTC, ISO-8601, always with microseconds ({@code 2026-11-22T10:15:30.123456Z}),
 * with nanoseconds only when the instant has sub-microsecond digits. Read form: any ISO-8601
 * date-time with an offset ({@code Z}, {@code +02:00}), normalized to UTC; or a naive local
 * date-time ({@code 2025-10-31T23:59:59} or {@code 2025-10-31 23:59:59}), read in a given zone and
 * flagged as naive so that callers can count it.
 */
public final class Timestamps {
  private static final DateTimeFormatter SECONDS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss").withZone(ZoneOffset.UTC);

  /** The second last formatted and its text: rows and events come in runs within one second. */
  private record Second(long epochSecond, String text) {}

  private static volatile Second last = new Second(Long.MIN_VALUE, "");

  private Timestamps() {}

  /**
   * An instant as nanoseconds since the epoch, one {@code long} (years 1678 to 2262): the key by
   * which the analyzer orders and keeps events and rows compactly.
   *
   * @throws ArithmeticException outside those years
   */
  public static long epochNanos(Instant ts) {
    return Math.addExact(Math.multiplyExact(ts.getEpochSecond(), 1_000_000_000L), ts.getNano());
  }

  /** The instant of {@link #epochNanos}. */
  public static Instant ofEpochNanos(long nanos) {
    return Instant.ofEpochSecond(
        Math.floorDiv(nanos, 1_000_000_000L), Math.floorMod(nanos, 1_000_000_000L));
  }

  /**
   * A parsed timestamp and whether it was naive (had no offset and was read in the assumed zone).
   */
  public record Reading(Instant instant, boolean naive) {}

  /** Formats an instant as UTC ISO-8601 with at least microsecond precision. */
  public static String format(Instant ts) {
    StringBuilder sb = new StringBuilder(30);
    Second second = last;
    if (second.epochSecond() != ts.getEpochSecond()) {
      second = new Second(ts.getEpochSecond(), SECONDS.format(ts));
      last = second;
    }
    sb.append(second.text());
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
   * @param text the {@code ts} value
   * @param assumeZone the zone a naive timestamp is read in
   * @throws DateTimeException when the text is neither form
   */
  public static Reading parse(String text, ZoneId assumeZone) {
    Instant utc = parseCanonicalUtc(text);
    if (utc != null) {
      return new Reading(utc, false);
    }
    String iso =
        text.length() > 10 && text.charAt(10) == ' '
            ? text.substring(0, 10) + 'T' + text.substring(11)
            : text;
    if (hasOffset(iso)) {
      return new Reading(
          OffsetDateTime.parse(iso, DateTimeFormatter.ISO_OFFSET_DATE_TIME).toInstant(), false);
    }
    try {
      LocalDateTime local = LocalDateTime.parse(iso, DateTimeFormatter.ISO_LOCAL_DATE_TIME);
      return new Reading(local.atZone(assumeZone).toInstant(), true);
    } catch (DateTimeParseException e) {
      throw new DateTimeException("not an ISO-8601 date-time: \"" + text + "\"", e);
    }
  }

  /**
   * The fast path for the form Vigil itself writes, {@code uuuu-MM-ddTHH:mm:ss[.fraction]Z} with 1
   * to 9 fraction digits: parsed digit by digit, without a formatter. Returns null for any other
   * form (including an impossible date), which the general path then reads or rejects.
   */
  static Instant parseCanonicalUtc(String s) {
    int n = s.length();
    if (n < 20
        || s.charAt(n - 1) != 'Z'
        || s.charAt(4) != '-'
        || s.charAt(7) != '-'
        || s.charAt(10) != 'T'
        || s.charAt(13) != ':'
        || s.charAt(16) != ':') {
      return null;
    }
    int year = digits(s, 0, 4);
    int month = digits(s, 5, 7);
    int day = digits(s, 8, 10);
    int hour = digits(s, 11, 13);
    int minute = digits(s, 14, 16);
    int second = digits(s, 17, 19);
    if ((year | month | day | hour | minute | second) < 0
        || month < 1
        || month > 12
        || day < 1
        || day > java.time.YearMonth.of(year, month).lengthOfMonth()
        || hour > 23
        || minute > 59
        || second > 59) {
      return null;
    }
    int nanos = 0;
    if (n > 20) {
      int digitsEnd = n - 1;
      int count = digitsEnd - 20;
      if (s.charAt(19) != '.' || count < 1 || count > 9) {
        return null;
      }
      nanos = digits(s, 20, digitsEnd);
      if (nanos < 0) {
        return null;
      }
      for (int i = count; i < 9; i++) {
        nanos *= 10;
      }
    } else if (n != 20) {
      return null;
    }
    long days = java.time.LocalDate.of(year, month, day).toEpochDay();
    return Instant.ofEpochSecond(days * 86_400L + hour * 3_600L + minute * 60L + second, nanos);
  }

  /**
   * The non-negative number written in {@code s[from, to)}, or -1 when a character is not a digit.
   */
  private static int digits(String s, int from, int to) {
    int v = 0;
    for (int i = from; i < to; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }

  /**
   * True when the part after the date carries {@code Z} or a {@code +hh:mm}/{@code -hh:mm} offset.
   */
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
