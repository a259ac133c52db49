package dev.vigil.watch;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * {@code watch --http-port}: an HTTP server on one address (docs/OPENTELEMETRY.md#metrics-and-
 * health) serving {@code GET /metrics} (the Prometheus text format) and {@code GET /health} (JSON);
 * any other path is 404 and any other method 405. It runs on two daemon threads of its own and
 * never touches the queue or the banks.
 */
public final class HttpEndpoint implements AutoCloseable {
  /** The content type of the Prometheus text format. */
  static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

  private final LoopbackServer http;

  private HttpEndpoint(LoopbackServer http) {
    this.http = http;
  }

  /**
   * Starts serving {@code metrics} on {@code host:port} (port 0: any free port).
   *
   * @throws IllegalArgumentException naming the address when it is in use or cannot be bound
   */
  public static HttpEndpoint start(String host, int port, WatchMetrics metrics) throws IOException {
    LoopbackServer http = LoopbackServer.bind("--http-port", host, port, 2, "vigil-http");
    HttpServer server = http.server();
    server.createContext(
        "/",
        ex -> answer(ex, 404, "text/plain; charset=utf-8", "not found: " + ex.getRequestURI()));
    server.createContext("/metrics", ex -> get(ex, PROMETHEUS_TEXT, metrics::scrape));
    server.createContext("/health", ex -> get(ex, "application/json", metrics::health));
    server.start();
    return new HttpEndpoint(http);
  }

  /** The port it listens on. */
  public int port() {
    return http.port();
  }

  private static void get(HttpExchange ex, String type, java.util.function.Supplier<String> body)
      throws IOException {
    String path = ex.getRequestURI().getPath();
    if (!path.equals(ex.getHttpContext().getPath())) {
      answer(ex, 404, "text/plain; charset=utf-8", "not found: " + path);
    } else if (!ex.getRequestMethod().equals("GET") && !ex.getRequestMethod().equals("HEAD")) {
      ex.getResponseHeaders().add("Allow", "GET, HEAD");
      answer(
          ex, 405, "text/plain; charset=utf-8", "method " + ex.getRequestMethod() + " not allowed");
    } else {
      answer(ex, 200, type, body.get());
    }
  }

  private static void answer(HttpExchange ex, int status, String type, String body)
      throws IOException {
    try (ex) {
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      ex.getResponseHeaders().set("Content-Type", type);
      boolean head = ex.getRequestMethod().equals("HEAD");
      ex.sendResponseHeaders(status, head ? -1 : bytes.length);
      if (!head) {
        try (OutputStream out = ex.getResponseBody()) {
          out.write(bytes);
        }
      }
    }
  }

  @Override
  public void close() {
    http.stop(0);
  }
}
