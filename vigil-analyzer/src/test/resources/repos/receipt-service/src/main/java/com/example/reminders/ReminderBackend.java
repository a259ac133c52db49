package com.example.reminders;

import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/** Where reminders are stored; it confirms each one with a receipt, asynchronously. */
public interface ReminderBackend {

  /** Schedules a reminder; the future completes when the backend has confirmed it. */
  CompletableFuture<Receipt> schedule(String reminderId, String text, Instant at);
}
