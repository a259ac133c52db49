package dev.vigil.watch;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.ingest.otlp.GenAiTurns;
import dev.vigil.ingest.otlp.SdkTraces;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.zip.GZIPOutputStream;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The OTLP receiver under hostile input: a thousand random and truncated bodies, a 100 MB body, a
 * client that never finishes its body, wrong types, methods and paths. Each is answered, and a
 * trace sent afterwards is received and mapped as if nothing had happened.
 */
class OtlpReceiverHostileTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir Path tmp;

  private static HttpResponse<String> post(String url, String type, byte[] body, String encoding)
      throws Exception {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(url))
            .header("Content-Type", type)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if (encoding != null) {
      b.header("Content-Encoding", encoding);
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static long queueEvents(Path queue) throws Exception {
    if (!Files.isDirectory(queue)) {
      return 0;
    }
    long n = 0;
    try (ChronicleQueue q = EventQueues.openForReading(queue)) {
      ExcerptTailer t = q.createTailer();
      while (EventWire.next(t) != null) {
        n++;
      }
    }
    return n;
  }

  @Test
  void everyHostileBodyIsAnsweredAndTheReceiverGoesOnServing() throws Exception {
    Path queue = tmp.resolve("queue");
    Instant t0 = Instant.now().minusSeconds(60);
    byte[] plainProtobuf;
    String plainJson;
    try (SdkTraces sdk = new SdkTraces("web")) {
      Span root = sdk.start("GET /", null, t0, Attributes.empty());
      Span child = sdk.start("SELECT", root, t0.plusMillis(1), Attributes.empty());
      SdkTraces.end(child, t0.plusMillis(2));
      SdkTraces.end(root, t0.plusMillis(3));
      var spans = sdk.take();
      plainProtobuf = SdkTraces.protobuf(spans);
      plainJson = SdkTraces.jsonLine(spans);
    }
    try (OtlpIntake otlp =
        OtlpIntake.start("127.0.0.1", 0, tmp.resolve("spool"), queue, Clock.systemUTC())) {
      String url = "http://127.0.0.1:" + otlp.port() + "/v1/traces";
      Random random = new Random(20261127);
      Map<Integer, Integer> statuses = new TreeMap<>();
      for (int i = 0; i < 1_000; i++) {
        boolean protobuf = i % 2 == 0;
        byte[] body;
        switch (i % 4) {
          case 0, 1 -> {
            body = new byte[random.nextInt(2_000)];
            random.nextBytes(body);
          }
          default -> {
            byte[] whole = protobuf ? plainProtobuf : plainJson.getBytes(StandardCharsets.UTF_8);
            body = java.util.Arrays.copyOf(whole, random.nextInt(whole.length));
            if (random.nextBoolean() && body.length > 0) {
              body[random.nextInt(body.length)] = (byte) random.nextInt(256);
            }
          }
        }
        HttpResponse<String> r =
            post(url, protobuf ? "application/x-protobuf" : "application/json", body, null);
        statuses.merge(r.statusCode(), 1, Integer::sum);
        assertTrue(
            r.statusCode() == 200 || r.statusCode() == 400, "body " + i + ": " + r.statusCode());
        if (r.statusCode() == 400) {
          assertEquals(1, r.body().lines().count(), "one line of reason: " + r.body());
        }
      }
      assertEquals(1_000, statuses.values().stream().mapToInt(Integer::intValue).sum());
      assertTrue(statuses.getOrDefault(400, 0) > 500, "most are refused: " + statuses);

      HttpResponse<String> huge =
          post(url, "application/x-protobuf", new byte[100 * 1024 * 1024], null);
      assertEquals(413, huge.statusCode());
      assertEquals("the body is over " + OtlpReceiver.MAX_BODY + " bytes", huge.body().strip());

      assertEquals(415, post(url, "text/plain", plainProtobuf, null).statusCode());
      assertEquals(400, post(url, "application/x-protobuf", plainProtobuf, "br").statusCode());
      HttpResponse<String> get =
          HTTP.send(
              HttpRequest.newBuilder(URI.create(url)).GET().build(),
              HttpResponse.BodyHandlers.ofString());
      assertEquals(405, get.statusCode());
      assertEquals(
          404,
          post(url.replace("/v1/traces", "/v1/logs"), "application/x-protobuf", plainProtobuf, null)
              .statusCode());

      try (Socket slow = new Socket("127.0.0.1", otlp.port())) {
        OutputStream out = slow.getOutputStream();
        out.write(
            ("POST /v1/traces HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-protobuf\r\n"
                    + "Content-Length: 1000\r\n\r\nabc")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush(); // and never the rest: the receiver serves others meanwhile

        String traceJson;
        try (SdkTraces sdk = new SdkTraces("concierge")) {
          GenAiTurns.bookingTurn(sdk, t0, "conv-9");
          traceJson = SdkTraces.jsonLine(sdk.take());
        }
        ByteArrayOutputStream zipped = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(zipped)) {
          gz.write(traceJson.getBytes(StandardCharsets.UTF_8));
        }
        HttpResponse<String> ok = post(url, "application/json", zipped.toByteArray(), "gzip");
        assertEquals(200, ok.statusCode(), ok.body());
        assertEquals("{}", ok.body());
        await().atMost(Duration.ofSeconds(60)).until(() -> queueEvents(queue) == 4);

        slow.shutdownOutput(); // the slow client gives up: its body is cut short
        InputStream in = slow.getInputStream();
        String answer = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        assertTrue(answer.startsWith("HTTP/1.1 400"), answer);
      }
      assertEquals(4, queueEvents(queue), "the hostile bodies added no event");
    }
  }
}
