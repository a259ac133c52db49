package dev.vigil.demo;

import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One reminder request of the demo and the instant it means: "in N minutes" from the call, or the
 * next "HH:MM" in the user's zone.
 *
 * @param text the request as the user wrote it
 * @param task what to remind of
 * @param minutes for a relative request, the minutes from now; else -1
 * @param at for an absolute request, the local time; else null
 */
record Request(String text, String task, long minutes, LocalTime at) {
  private static final Pattern IN_MINUTES = Pattern.compile("in (\\d+) minutes? (?:to )?(.+)");
  private static final Pattern AT_TIME = Pattern.compile("at (\\d{1,2}:\\d{2}),? (?:to )?(.+)");

  boolean relative() {
    return at == null;
  }

  /** The instant the user meant, for a call that started at {@code callStart}. */
  Instant intended(Instant callStart, ZoneId zone) {
    if (relative()) {
      return callStart.truncatedTo(ChronoUnit.MINUTES).plus(minutes, ChronoUnit.MINUTES);
    }
    ZonedDateTime now = callStart.atZone(zone).truncatedTo(ChronoUnit.MINUTES);
    ZonedDateTime when = now.toLocalDate().atTime(at).atZone(zone);
    return (when.isAfter(now) ? when : when.plusDays(1)).toInstant();
  }

  /**
   * The reminder requests among the lines (blank lines, comments and other requests are left out).
   */
  static List<Request> parse(List<String> lines) {
    List<Request> out = new ArrayList<>();
    for (String line : lines) {
      String text = line.strip().toLowerCase(Locale.ROOT).replaceFirst("^(please )?remind me ", "");
      Matcher m = IN_MINUTES.matcher(text);
      if (m.find()) {
        out.add(new Request(line.strip(), m.group(2), Long.parseLong(m.group(1)), null));
        continue;
      }
      m = AT_TIME.matcher(text);
      if (m.find()) {
        String hhmm = m.group(1).length() == 4 ? "0" + m.group(1) : m.group(1);
        out.add(new Request(line.strip(), m.group(2), -1, LocalTime.parse(hhmm)));
      }
    }
    return out;
  }
}
