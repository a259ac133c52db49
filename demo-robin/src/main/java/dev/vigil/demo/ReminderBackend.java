package dev.vigil.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * The remote reminder backend Robin talks to, on loopback. {@code POST /reminders} accepts a
 * reminder and posts its receipt to the caller's callback {@link #RECEIPT_SEC} seconds later. While
 * its scheduler is busy (the first attempt of two reminders out of three) it answers 503 and parks
 * the reminder; its reconciliation sweep confirms parked reminders {@link #PARKED_RECEIPT_SEC}
 * seconds after they arrived, unless the client tries again, which is accepted like a new reminder.
 * The 503 messages are worded differently each time, as real services' are. All delays are
 * multiplied by the demo's time scale.
 */
public final class ReminderBackend implements AutoCloseable {
  /** Seconds from acceptance to receipt, unscaled. */
  public static final double RECEIPT_SEC = 8.0;

  /** Seconds from a parked first attempt to its receipt, unscaled (the paper's 97 s). */
  public static final double PARKED_RECEIPT_SEC = 97.0;

  private static final List<String> BUSY =
      List.of(
          "scheduler busy, reminder parked for redelivery",
          "reminder parked: the scheduler is busy right now",
          "the busy scheduler parked this reminder for a later redelivery",
          "could not schedule now, scheduler busy; reminder parked");

  private final HttpServer server;
  private final double timeScale;
  private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
  private final HttpClient http = HttpClient.newHttpClient();
  private final ObjectMapper json = new ObjectMapper();
  private final Map<String, ScheduledFuture<?>> parked = new ConcurrentHashMap<>();
  private final Map<String, Boolean> seen = new ConcurrentHashMap<>();
  private final AtomicInteger distinct = new AtomicInteger();
  private final AtomicInteger refusals = new AtomicInteger();
  private final Predicate<String> busy;
  private final boolean dropParked;

  private ReminderBackend(
      HttpServer server, double timeScale, Predicate<String> busy, boolean dropParked) {
    this.server = server;
    this.timeScale = timeScale;
    this.busy = busy;
    this.dropParked = dropParked;
  }

  /** Starts the backend on an ephemeral loopback port, busy for two first attempts out of three. */
  public static ReminderBackend start(double timeScale) throws IOException {
    return start(timeScale, null, false);
  }

  /**
   * Starts the backend on an ephemeral loopback port, busy for the first attempt of the reminders
   * {@code busy} accepts (by id; null: two out of three); a parked reminder is confirmed by the
   * reconciliation sweep, or never when {@code dropParked} (a reminder lost).
   */
  public static ReminderBackend start(double timeScale, Predicate<String> busy, boolean dropParked)
      throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    ReminderBackend backend = new ReminderBackend(server, timeScale, busy, dropParked);
    server.createContext("/reminders", backend::handle);
    server.setExecutor(Executors.newFixedThreadPool(2));
    server.start();
    return backend;
  }

  /** The base URL Robin is given. */
  public String url() {
    return "http://"
        + server.getAddress().getHostString()
        + ":"
        + server.getAddress().getPort()
        + "/";
  }

  // the receipt is sent later and forgotten: nothing waits for it, as nothing waits for a real
  // backend's callback
  @SuppressWarnings("FutureReturnValueIgnored")
  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      if (exchange.getRequestMethod().equals("DELETE")) {
        exchange.sendResponseHeaders(204, -1);
        return;
      }
      JsonNode body;
      try (InputStream in = exchange.getRequestBody()) {
        body = json.readTree(in);
      }
      String id = body.path("reminderId").asText();
      String callback = body.path("callback").asText();
      boolean first = seen.putIfAbsent(id, Boolean.TRUE) == null;
      if (first && (busy == null ? distinct.incrementAndGet() % 3 != 1 : busy.test(id))) {
        if (!dropParked) {
          parked.put(
              id,
              timers.schedule(
                  () -> receipt(id, callback), millis(PARKED_RECEIPT_SEC), TimeUnit.MILLISECONDS));
        }
        byte[] message =
            BUSY.get(refusals.getAndIncrement() % BUSY.size()).getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(503, message.length);
        exchange.getResponseBody().write(message);
        return;
      }
      ScheduledFuture<?> redelivery = parked.remove(id);
      if (redelivery != null) {
        redelivery.cancel(false);
      }
      timers.schedule(() -> receipt(id, callback), millis(RECEIPT_SEC), TimeUnit.MILLISECONDS);
      exchange.sendResponseHeaders(202, -1);
    }
  }

  private long millis(double seconds) {
    return Math.round(seconds * 1000 * timeScale);
  }

  // fire and forget: a callback that fails is a receipt lost, which is for the agent to notice
  @SuppressWarnings("FutureReturnValueIgnored")
  private void receipt(String id, String callback) {
    parked.remove(id);
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(callback))
            .POST(HttpRequest.BodyPublishers.ofString("{\"reminderId\":\"" + id + "\"}"))
            .build();
    http.sendAsync(request, HttpResponse.BodyHandlers.discarding());
  }

  /** How many first attempts were refused as busy. */
  public int refusals() {
    return refusals.get();
  }

  @Override
  public void close() {
    server.stop(0);
    timers.shutdownNow();
    ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
  }
}
