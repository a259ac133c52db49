package com.example.robin;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Where the backend's receipts arrive: a small HTTP endpoint on loopback, one future per expected reminder. */
public final class ReceiptInbox implements AutoCloseable {
  private static final Pattern REMINDER_ID = Pattern.compile("\"reminderId\"\\s*:\\s*\"([^\"]+)\"");

  private final HttpServer server;
  private final Map<String, CompletableFuture<String>> expected = new ConcurrentHashMap<>();

  private ReceiptInbox(HttpServer server) {
    this.server = server;
  }

  /** Starts the endpoint on an ephemeral loopback port. */
  public static ReceiptInbox start() throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    ReceiptInbox inbox = new ReceiptInbox(server);
    server.createContext("/receipts", exchange -> {
      try (InputStream in = exchange.getRequestBody()) {
        Matcher m = REMINDER_ID.matcher(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        boolean known = m.find() && inbox.onReceipt(m.group(1));
        exchange.sendResponseHeaders(known ? 204 : 404, -1);
      } finally {
        exchange.close();
      }
    });
    server.setExecutor(Executors.newSingleThreadExecutor());
    server.start();
    return inbox;
  }

  /** The URL the backend posts receipts to. */
  public String callbackUrl() {
    return "http://" + server.getAddress().getHostString() + ":" + server.getAddress().getPort() + "/receipts";
  }

  /** Registers a reminder whose receipt is awaited; the future completes with its id when the receipt arrives. */
  public CompletableFuture<String> expect(String reminderId) {
    return expected.computeIfAbsent(reminderId, id -> new CompletableFuture<>());
  }

  /** The backend's receipt for a reminder. */
  public boolean onReceipt(String reminderId) {
    CompletableFuture<String> f = expected.get(reminderId);
    return f != null && f.complete(reminderId);
  }

  /** Waits up to {@code max} for every expected receipt; returns how many are still missing. */
  public int awaitOutstanding(Duration max) throws InterruptedException {
    long deadline = System.nanoTime() + max.toNanos();
    for (CompletableFuture<String> f : expected.values()) {
      long left = deadline - System.nanoTime();
      try {
        f.get(Math.max(left, 0), TimeUnit.NANOSECONDS);
      } catch (Exception e) {
        // counted below
      }
    }
    return (int) expected.values().stream().filter(f -> !f.isDone()).count();
  }

  @Override
  public void close() {
    server.stop(0);
    ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
  }
}
