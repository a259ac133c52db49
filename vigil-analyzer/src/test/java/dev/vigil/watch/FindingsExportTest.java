package dev.vigil.watch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.sun.net.httpserver.HttpServer;
import dev.vigil.api.Analyzer;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import dev.vigil.orchestrate.PassOptions;
import dev.vigil.orchestrate.PassResult;
import io.opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.metrics.v1.Metric;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code watch --otlp-endpoint}: each pass's alarm and findings reach an OTLP/HTTP collector (a
 * loopback one here, decoding with the protocol's own classes) as log records and metrics, through
 * the real OpenTelemetry SDK exporters.
 */
class FindingsExportTest {
  @TempDir Path tmp;

  private final List<LogRecord> logs = new ArrayList<>();
  private final List<Metric> metrics = new ArrayList<>();

  private PassOptions options(Path queue, Instant now) {
    return WatchOptions.of(queue, tmp, now);
  }

  private static void append(Path queue, List<Event> events) {
    try (ChronicleQueue q = EventQueues.openForWriting(queue)) {
      ExcerptAppender a = q.createAppender();
      events.forEach(e -> EventWire.append(a, e.withOrigin("concierge", null, null, null)));
    }
  }

  private static Event turn(Instant at, String kind, String status, String text) {
    var payload = JsonNodeFactory.instance.objectNode();
    if (text != null) {
      payload.put("text", text);
    } else {
      payload.put("tool", "bookTable");
    }
    return Event.of(at, kind, status, payload).withCall("t-1", null).withSession("guest-1");
  }

  private HttpServer collector() throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 8);
    server.createContext(
        "/v1/logs",
        ex -> {
          var req = ExportLogsServiceRequest.parseFrom(ex.getRequestBody().readAllBytes());
          synchronized (logs) {
            req.getResourceLogsList()
                .forEach(
                    r -> r.getScopeLogsList().forEach(s -> logs.addAll(s.getLogRecordsList())));
          }
          ex.sendResponseHeaders(200, -1);
          ex.close();
        });
    server.createContext(
        "/v1/metrics",
        ex -> {
          var req = ExportMetricsServiceRequest.parseFrom(ex.getRequestBody().readAllBytes());
          synchronized (metrics) {
            req.getResourceMetricsList()
                .forEach(
                    r -> r.getScopeMetricsList().forEach(s -> metrics.addAll(s.getMetricsList())));
          }
          ex.sendResponseHeaders(200, -1);
          ex.close();
        });
    server.start();
    return server;
  }

  private static Map<String, String> attributes(List<KeyValue> kvs) {
    return kvs.stream()
        .collect(
            Collectors.toMap(
                KeyValue::getKey,
                kv ->
                    kv.getValue().hasArrayValue()
                        ? kv.getValue().getArrayValue().getValuesList().stream()
                            .map(v -> v.getStringValue())
                            .toList()
                            .toString()
                        : kv.getValue().hasDoubleValue()
                            ? String.valueOf(kv.getValue().getDoubleValue())
                            : kv.getValue().getStringValue()));
  }

  private double lastGauge(String name) {
    synchronized (metrics) {
      Metric m = null;
      for (Metric x : metrics) {
        if (x.getName().equals(name)) {
          m = x;
        }
      }
      assertTrue(m != null, name + " in " + metrics);
      var p = m.getGauge().getDataPoints(0);
      assertEquals("concierge", attributes(p.getAttributesList()).get("vigil.agent"));
      return p.hasAsDouble() ? p.getAsDouble() : p.getAsInt();
    }
  }

  @Test
  void eachPassSendsItsAlarmAndFindingsAsLogRecordsAndMetrics() throws Exception {
    Path queue = tmp.resolve("queue");
    Instant t0 = Instant.parse("2026-11-24T10:00:00Z");
    append(queue, List.of(turn(t0, "turn.user", "ok", "What time is it in Lisbon?")));
    HttpServer server = collector();
    try (FindingsExport export =
        FindingsExport.to("http://127.0.0.1:" + server.getAddress().getPort())) {
      PassRunner runner = export.observe(o -> Analyzer.builder().queue(o.queue()).build().run(o));
      PassOptions calm =
          options(queue, t0.plusSeconds(60))
              .forAgent("concierge", tmp.resolve("bank"), tmp.resolve("out"));
      PassResult first = runner.run(calm);
      assertEquals("ok", first.alarm().level());
      assertEquals(0.0, lastGauge("vigil.alarm.score"));
      assertEquals(0.0, lastGauge("vigil.alarm.level"));

      append(
          queue,
          List.of(
              turn(t0.plusSeconds(120), "turn.user", "ok", "Book a table for two at 8"),
              turn(t0.plusSeconds(121), "tool.book_table", "fail", null),
              turn(t0.plusSeconds(122), "turn.answer", "ok", "Your table has been booked.")));
      PassResult second = runner.run(calm.at(t0.plusSeconds(180)));
      assertTrue(second.alarm().score() > 0, second.alarm().line());
      assertEquals(second.alarm().score(), lastGauge("vigil.alarm.score"));
      assertEquals(WatchMetrics.level(second.alarm().level()), lastGauge("vigil.alarm.level"));

      synchronized (logs) {
        LogRecord alarm = logs.get(logs.size() - 1);
        Map<String, String> a = attributes(alarm.getAttributesList());
        assertEquals(second.alarm().line(), alarm.getBody().getStringValue());
        assertEquals("concierge", a.get("vigil.agent"));
        assertEquals(second.alarm().level(), a.get("vigil.alarm.level"));
        assertTrue(a.get("vigil.reasons").contains("claim_without_action x1"), a.toString());
        assertEquals("[guest-1]", a.get("vigil.sessions"));
        LogRecord finding =
            logs.stream()
                .filter(
                    l ->
                        "claim_without_action"
                            .equals(attributes(l.getAttributesList()).get("vigil.detector")))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no finding in " + logs));
        assertEquals("[guest-1]", attributes(finding.getAttributesList()).get("vigil.sessions"));
        assertTrue(finding.getBody().getStringValue().contains("state an action as done"));
      }
    } finally {
      server.stop(0);
    }
  }
}
