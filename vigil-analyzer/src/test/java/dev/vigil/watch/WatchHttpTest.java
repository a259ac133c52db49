package dev.vigil.watch;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.api.Analyzer;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import dev.vigil.orchestrate.PassOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code watch --http-port}: a running watch's {@code /metrics}, parsed by Prometheus's own
 * promtool, and its {@code /health}, as passes come and fail.
 */
class WatchHttpTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir Path tmp;

  private PassOptions template(Path queue) {
    return WatchOptions.of(queue, tmp, Instant.now());
  }

  private static void append(Path queue, int n, String status) {
    try (ChronicleQueue q = EventQueues.openForWriting(queue)) {
      ExcerptAppender a = q.createAppender();
      for (int i = 0; i < n; i++) {
        EventWire.append(
            a,
            Event.of(Instant.now(), "tool.look_up", status).withOrigin("robin", null, null, null));
      }
    }
  }

  private static HttpResponse<String> get(int port, String path) throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).GET().build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The value of the sample {@code name{labels}} in a scrape that promtool accepted. */
  private static double sample(String scrape, String name, String labels) throws Exception {
    Promtool.Check check = Promtool.checkMetrics(scrape);
    assertEquals(0, check.exit(), check.output() + "\n" + scrape);
    String series = labels.isEmpty() ? name : name + "{" + labels + "}";
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " (\\S+)$").matcher(scrape);
    assertTrue(m.find(), series + " in\n" + scrape);
    return Double.parseDouble(m.group(1));
  }

  @Test
  void metricsParseAndTheAlarmGaugeMovesWhenAPassRaisesIt() throws Exception {
    Path queue = tmp.resolve("queue");
    append(queue, 0, "ok");
    AtomicInteger calls = new AtomicInteger();
    PassRunner failingOnce =
        o -> {
          if (calls.incrementAndGet() == 2) {
            throw new IllegalStateException("stage exploded");
          }
          return Analyzer.builder().queue(o.queue()).build().run(o);
        };
    StringWriter out = new StringWriter();
    WatchMetrics metrics = new WatchMetrics(Clock.systemUTC());
    Watcher watcher =
        new Watcher(
            new Watcher.Settings(template(queue), null, 4, null),
            metrics.observe(failingOnce),
            Clock.systemUTC(),
            new PrintWriter(out, true),
            new PrintWriter(new StringWriter(), true));
    metrics.deposits(watcher::deposited).delay(watcher::delay);
    try (HttpEndpoint http = HttpEndpoint.start("127.0.0.1", 0, metrics)) {
      int port = http.port();
      JsonNode health = JSON.readTree(get(port, "/health").body());
      assertEquals("up", health.get("status").asText());
      assertTrue(health.get("last_pass").isNull(), health.toString());

      CompletableFuture<Watcher.Totals> running =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return watcher.run();
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
      append(queue, 4, "ok");
      await().atMost(Duration.ofSeconds(30)).until(() -> out.toString().contains(" alarm="));
      String first = get(port, "/metrics").body();
      double calm = sample(first, "vigil_alarm_score", "agent=\"all\"");
      assertEquals(0, sample(first, "vigil_alarm_level", "agent=\"all\""));
      assertEquals(4, sample(first, "vigil_events_deposited_total", ""));
      assertEquals(1, sample(first, "vigil_passes_total", "agent=\"all\",outcome=\"ok\""));

      append(queue, 4, "fail"); // the second pass fails inside Vigil
      await().atMost(Duration.ofSeconds(30)).until(() -> out.toString().contains(" failed: "));
      append(queue, 4, "fail");
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> out.toString().lines().filter(l -> l.contains(" alarm=")).count() == 2);
      String second = get(port, "/metrics").body();
      double raised = sample(second, "vigil_alarm_score", "agent=\"all\"");
      assertTrue(raised > calm, "the alarm gauge moved: " + calm + " -> " + raised);
      assertTrue(sample(second, "vigil_alarm_level", "agent=\"all\"") >= 1, second);
      assertEquals(12, sample(second, "vigil_events_deposited_total", ""));
      assertEquals(1, sample(second, "vigil_passes_total", "agent=\"all\",outcome=\"failed\""));
      assertEquals(
          2, sample(second, "vigil_pass_duration_seconds_count", "agent=\"all\",outcome=\"ok\""));
      assertTrue(sample(second, "vigil_thorns", "agent=\"all\"") >= 1, second);

      health = JSON.readTree(get(port, "/health").body());
      assertTrue(health.get("last_pass").isTextual(), health.toString());
      assertTrue(
          health.get("last_error").asText().contains("IllegalStateException: stage exploded"),
          health.toString());

      assertEquals(404, get(port, "/nothing").statusCode());
      assertEquals(404, get(port, "/metrics/more").statusCode());
      HttpResponse<String> post =
          HTTP.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                  .POST(HttpRequest.BodyPublishers.ofString("x"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(405, post.statusCode());

      IllegalArgumentException taken =
          assertThrows(
              IllegalArgumentException.class, () -> HttpEndpoint.start("127.0.0.1", port, metrics));
      assertTrue(
          taken.getMessage().startsWith("--http-port " + port + " on 127.0.0.1 cannot be bound"),
          taken.getMessage());
      watcher.stop();
      running.get();
    }
  }
}
