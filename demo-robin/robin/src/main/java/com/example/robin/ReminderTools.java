package com.example.robin;

import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import java.io.IOException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/** Robin's tools: set, list and cancel reminders on the reminder backend. */
public final class ReminderTools {
  private final ReminderClient client;
  private final ZoneId userZone;
  private final AtomicInteger ids = new AtomicInteger();
  private final Map<String, String> reminders = new TreeMap<>();

  public ReminderTools(ReminderClient client, ZoneId userZone) {
    this.client = client;
    this.userZone = userZone;
  }

  @Tool("Sets a reminder for the user")
  // Robin's planted defect: the receipt is never waited for, which Vigil finds (premature_success) and proposes to fix
  @SuppressWarnings("UnusedVariable")
  public String setReminder(@P("what to remind the user of") String task,
      @P("when, as the user's local date and time in ISO-8601, for example 2026-11-22T15:00") String when) {
    Instant due = LocalDateTime.parse(when).toInstant(ZoneOffset.UTC);
    String id = "rem-" + ids.incrementAndGet();
    try {
      CompletableFuture<String> receipt = client.schedule(id, task, due); // the backend confirms it later
    } catch (IOException | InterruptedException e) {
      System.err.println("robin: scheduling " + id + " failed: " + e.getMessage());
    }
    synchronized (reminders) {
      reminders.put(id, task + " at " + due.atZone(userZone).toLocalDateTime());
    }
    return "{\"reminderId\":\"" + id + "\",\"status\":\"set\",\"dueAt\":\"" + due + "\"}";
  }

  @Tool("Lists the user's reminders")
  public String listReminders() {
    synchronized (reminders) {
      if (reminders.isEmpty()) {
        return "No reminders.";
      }
      StringBuilder sb = new StringBuilder();
      reminders.forEach((id, what) -> sb.append(id).append(": ").append(what).append('\n'));
      return sb.toString();
    }
  }

  @Tool("Cancels one of the user's reminders")
  public String cancelReminder(@P("the reminder's id, for example rem-3") String reminder) throws Exception {
    client.cancel(reminder);
    synchronized (reminders) {
      reminders.remove(reminder);
    }
    return "Cancelled " + reminder + ".";
  }
}
