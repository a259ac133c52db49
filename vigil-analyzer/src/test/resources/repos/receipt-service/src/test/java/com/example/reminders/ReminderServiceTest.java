package com.example.reminders;

import java.time.LocalDateTime;

/** A test source: the scanner skips it and no strategy rewrites it. */
class ReminderServiceTest {
  LocalDateTime fixedNow() {
    return LocalDateTime.parse("2025-10-31T12:00");
  }
}
