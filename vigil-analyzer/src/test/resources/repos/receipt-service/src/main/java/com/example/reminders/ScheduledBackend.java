package com.example.reminders;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/** A backend that confirms each reminder after a delay, from its own thread. */
public final class ScheduledBackend implements ReminderBackend {
  private final ScheduledExecutorService confirmations = Executors.newSingleThreadScheduledExecutor();
  private final Map<String, Instant> reminders = new ConcurrentHashMap<>();
  private final Duration confirmationDelay;

  public ScheduledBackend(Duration confirmationDelay) {
    this.confirmationDelay = confirmationDelay;
  }

  @Override
  public CompletableFuture<Receipt> schedule(String reminderId, String text, Instant at) {
    CompletableFuture<Receipt> receipt = new CompletableFuture<>();
    reminders.put(reminderId, at);
    confirmations.schedule(() -> receipt.complete(new Receipt(reminderId, Instant.now())),
        confirmationDelay.toMillis(), TimeUnit.MILLISECONDS);
    return receipt;
  }

  /** When a reminder fires, or null. */
  public Instant firesAt(String reminderId) {
    return reminders.get(reminderId);
  }
}
