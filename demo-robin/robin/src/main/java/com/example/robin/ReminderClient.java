package com.example.robin;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;

/** The reminder backend's HTTP API: schedule and cancel; receipts come back to Robin's {@link ReceiptInbox}. */
public final class ReminderClient {
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final URI backend;
  private final ReceiptInbox inbox;

  public ReminderClient(URI backend, ReceiptInbox inbox) {
    this.backend = backend;
    this.inbox = inbox;
  }

  /**
   * Asks the backend to schedule a reminder. The backend confirms it later by posting a receipt to the inbox; the
   * future returned completes then.
   */
  public CompletableFuture<String> schedule(String reminderId, String task, Instant dueAt)
      throws IOException, InterruptedException {
    CompletableFuture<String> receipt = inbox.expect(reminderId);
    String body = "{\"reminderId\":\"" + reminderId + "\",\"task\":\"" + task.replace("\"", "'") + "\",\"dueAt\":\""
        + dueAt + "\",\"callback\":\"" + inbox.callbackUrl() + "\"}";
    HttpRequest request = HttpRequest.newBuilder(backend.resolve("/reminders"))
        .timeout(Duration.ofSeconds(10))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body))
        .build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() >= 300) {
      throw new IOException("backend answered " + response.statusCode() + ": " + response.body());
    }
    return receipt;
  }

  /** Cancels a reminder. */
  public void cancel(String reminderId) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(backend.resolve("/reminders/" + reminderId))
        .timeout(Duration.ofSeconds(10))
        .DELETE()
        .build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() >= 300) {
      throw new IOException("backend answered " + response.statusCode() + ": " + response.body());
    }
  }
}
