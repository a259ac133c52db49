package com.example.reminders;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;

/** Sets reminders for one user, who gives times in their own zone. */
public final class ReminderService {
  private final ReminderBackend backend;
  private final ZoneId userZone;

  public ReminderService(ReminderBackend backend, ZoneId userZone) {
    this.backend = Objects.requireNonNull(backend);
    this.userZone = Objects.requireNonNull(userZone);
  }

  /**
   * Sets a reminder.
   *
   * @param when the user's local time, e.g. {@code 2025-10-31T15:00}
   */
  public String setReminder(String reminderId, String text, String when) {
    Instant at = LocalDateTime.parse(when).toInstant(ZoneOffset.UTC);
    backend.schedule(reminderId, text, at);
    return "Reminder set for " + at;
  }

  /** The zone the user's times are in. */
  public ZoneId userZone() {
    return userZone;
  }
}
