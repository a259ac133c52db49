package dev.vigil.watch;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vigil.api.Analyzer;
import dev.vigil.ingest.otlp.GenAiTurns;
import dev.vigil.ingest.otlp.OtlpFile;
import dev.vigil.ingest.otlp.SdkTraces;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventJson;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import dev.vigil.orchestrate.PassOptions;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code watch --otlp-port} in-process: spans sent by the real OpenTelemetry SDK's OTLP/HTTP
 * exporter become the queue's events and are deposited once, across a retry and a restart.
 */
class OtlpReceiverTest {
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir Path tmp;

  private PassOptions template(Path queue) {
    return WatchOptions.of(queue, tmp, Instant.now());
  }

  /** A watch of {@code queue} with its receiver, running until closed. */
  private final class Running implements AutoCloseable {
    final Watcher watcher;
    final OtlpIntake otlp;
    final CompletableFuture<Watcher.Totals> loop;
    final StringWriter out = new StringWriter();

    Running(Path queue) throws Exception {
      otlp = OtlpIntake.start("127.0.0.1", 0, tmp.resolve("spool"), queue, Clock.systemUTC());
      watcher =
          new Watcher(
              new Watcher.Settings(template(queue), null, 1_000_000, null),
              o -> Analyzer.builder().queue(o.queue()).build().run(o),
              Clock.systemUTC(),
              new PrintWriter(out, true),
              new PrintWriter(new StringWriter(), true));
      loop =
          CompletableFuture.supplyAsync(
              () -> {
                try {
                  return watcher.run();
                } catch (Exception e) {
                  throw new IllegalStateException(e);
                }
              });
    }

    String endpoint() {
      return "http://127.0.0.1:" + otlp.port() + "/v1/traces";
    }

    @Override
    public void close() throws Exception {
      watcher.stop();
      loop.get();
      otlp.close();
    }
  }

  private static List<Event> queueEvents(Path queue) throws EventFormatException {
    List<Event> out = new ArrayList<>();
    if (!Files.isDirectory(queue)) {
      return out;
    }
    try (ChronicleQueue q = EventQueues.openForReading(queue)) {
      ExcerptTailer t = q.createTailer();
      for (Event e; (e = EventWire.next(t)) != null; ) {
        out.add(e);
      }
    }
    return out;
  }

  private static HttpResponse<String> post(String endpoint, String type, byte[] body)
      throws Exception {
    return HTTP.send(
        HttpRequest.newBuilder(URI.create(endpoint))
            .header("Content-Type", type)
            .POST(HttpRequest.BodyPublishers.ofByteArray(body))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void spansFromTheSdkExporterBecomeTheEventsTheFileGivesDepositedOnceAcrossRetryAndRestart()
      throws Exception {
    Path queue = tmp.resolve("queue");
    Instant t0 = Instant.now().minusSeconds(60);
    List<SpanData> first;
    try (Running watch = new Running(queue);
        SdkTraces sdk =
            new SdkTraces(
                "concierge",
                OtlpHttpSpanExporter.builder().setEndpoint(watch.endpoint()).build())) {
      GenAiTurns.bookingTurn(sdk, t0, "conv-1"); // each span is sent as it ends, root last
      first = sdk.take();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> queueEvents(queue).size(), org.hamcrest.Matchers.equalTo(4));
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> watch.watcher.deposited(), org.hamcrest.Matchers.equalTo(2L));

      // the same trace, as a file gives it: field by field the same events
      Path file = Files.writeString(tmp.resolve("t.jsonl"), SdkTraces.jsonLine(first) + "\n");
      OtlpFile.toJsonl(file, tmp.resolve("t-events.jsonl"));
      List<String> fromFile = Files.readAllLines(tmp.resolve("t-events.jsonl"));
      assertEquals(fromFile, queueEvents(queue).stream().map(EventJson::write).toList());

      // an exporter's retry of the whole trace: answered, and nothing is added
      HttpResponse<String> retry =
          post(watch.endpoint(), "application/x-protobuf", SdkTraces.protobuf(first));
      assertEquals(200, retry.statusCode());
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> watch.otlp.mapper().spans() == 2L * first.size());
      assertEquals(4, queueEvents(queue).size());

      // a second trace's tool span only: its agent span comes after the restart
      try (SdkTraces second = new SdkTraces("concierge")) {
        Span agent =
            second.start(
                "invoke_agent concierge",
                null,
                t0.plusSeconds(10),
                GenAiTurns.genAi(
                    "invoke_agent",
                    "gen_ai.conversation.id",
                    "conv-2",
                    "gen_ai.input.messages",
                    GenAiTurns.userMessages("Cancel it"),
                    "gen_ai.output.messages",
                    GenAiTurns.answerMessages("It is cancelled.")));
        Span tool =
            second.start(
                "execute_tool cancel",
                agent,
                t0.plusSeconds(11),
                GenAiTurns.genAi("execute_tool", "gen_ai.tool.name", "cancelBooking"));
        SdkTraces.end(tool, t0.plusSeconds(12));
        byte[] toolSpan = SdkTraces.protobuf(second.take());
        assertEquals(200, post(watch.endpoint(), "application/x-protobuf", toolSpan).statusCode());
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> watch.otlp.mapper().spans() == 2L * first.size() + 1);
        assertEquals(4, queueEvents(queue).size(), "the trace waits for its agent span");
        watch.close();

        SdkTraces.end(agent, t0.plusSeconds(13));
        byte[] agentSpan = SdkTraces.protobuf(second.take());
        try (Running again = new Running(queue)) {
          assertEquals(
              200, post(again.endpoint(), "application/x-protobuf", agentSpan).statusCode());
          await().atMost(Duration.ofSeconds(30)).until(() -> queueEvents(queue).size() == 7);
          List<Event> all = queueEvents(queue);
          assertEquals(
              List.of("turn.user", "tool.cancel_booking", "turn.answer"),
              all.subList(4, 7).stream().map(Event::kind).toList());
          assertEquals(all.get(4).turn(), all.get(5).turn(), "the restart kept the trace whole");
          assertEquals("conv-2", all.get(5).session());
          await().atMost(Duration.ofSeconds(30)).until(() -> again.watcher.deposited() == 1);
        }
      }
    }
  }
}
