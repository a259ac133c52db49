package org.acme.meetings;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/** Plans meetings from the local start times attendees type in. */
public class MeetingPlanner {
  private final List<Meeting> meetings = new ArrayList<>();

  /*
   * Times come in as the attendee's wall-clock time, e.g. "2025-07-01T09:30".
   * (A comment that mentions LocalDateTime.parse(s).toInstant(ZoneOffset.UTC) is not code.)
   */
  public Meeting plan(String title, String localStart, int minutes, ZoneId attendeeZone) {
    LocalDateTime start = LocalDateTime.parse(localStart);
    Instant begins = start.toInstant(ZoneOffset.UTC);
    Meeting meeting = new Meeting(title, begins, begins.plus(Duration.ofMinutes(minutes)));
    meetings.add(meeting);
    return meeting;
  }

  /** Seconds from now until a local start time. */
  public long secondsUntil(String localStart, ZoneId attendeeZone, Clock clock) {
    long startsAt = LocalDateTime.parse(localStart).toEpochSecond(ZoneOffset.UTC);
    return startsAt - clock.instant().getEpochSecond();
  }

  /** A server-side timestamp, already in UTC: nothing to change here. */
  public Instant createdAt(Clock clock) {
    LocalDateTime created = LocalDateTime.now(clock);
    return created.toInstant(ZoneOffset.UTC);
  }

  /** A line for the audit log. */
  public String auditLine(String title) {
    return "planned " + title + " at " + LocalDateTime.now();
  }

  public List<Meeting> meetings() {
    return List.copyOf(meetings);
  }
}
