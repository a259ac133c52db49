package dev.vigil.watch;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.api.Analyzer;
import dev.vigil.it.ChildJvm;
import dev.vigil.observe.Event;
import dev.vigil.orchestrate.PassResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Spring AI application that exports its own observations over OTLP (Micrometer Tracing's
 * OpenTelemetry bridge, {@code SpringAiTracedApp}) to the receiver of {@code watch --otlp-port}:
 * its tool calls become tool events framed by the turns of its {@code ChatClient} calls, and a pass
 * diagnoses them.
 */
class SpringAiOtlpIT {
  @TempDir Path tmp;

  @Test
  void springAiObservationsAreReceivedAndDiagnosed() throws Exception {
    Path queue = tmp.resolve("queue");
    try (OtlpIntake otlp =
        OtlpIntake.start("127.0.0.1", 0, tmp.resolve("spool"), queue, Clock.systemUTC())) {
      ChildJvm.Run run =
          ChildJvm.run(
              ChildJvm.java(),
              null,
              List.of(),
              ChildJvm.applicationClassPath(),
              "dev.vigil.it.apps.SpringAiTracedApp",
              "http://127.0.0.1:" + otlp.port() + "/v1/traces");
      assertEquals(0, run.exit(), run.stderr());
      await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () ->
                  Files.isDirectory(queue)
                      && ChildJvm.readQueue(queue).stream()
                              .filter(e -> e.kind().startsWith("tool."))
                              .count()
                          == 3);
      List<Event> events = ChildJvm.readQueue(queue);
      List<Event> tools = events.stream().filter(e -> e.kind().startsWith("tool.")).toList();
      assertEquals(
          List.of("tool.current_weather", "tool.book_hotel", "tool.book_hotel"),
          tools.stream().map(Event::kind).toList());
      assertEquals(List.of("ok", "fail", "fail"), tools.stream().map(Event::status).toList());
      assertTrue(tools.stream().allMatch(e -> "travel".equals(e.agent())), tools.toString());
      assertEquals(3, tools.stream().map(Event::turn).distinct().count(), "one turn a prompt");
      assertTrue(
          tools.get(1).payload().at("/error/message").asText().contains("no rooms left in Oslo"),
          tools.get(1).toString());
      List<Event> failedTurns =
          events.stream().filter(e -> e.kind().equals("turn.answer")).toList();
      assertEquals(List.of("fail", "fail"), failedTurns.stream().map(Event::status).toList());
      assertEquals(tools.get(1).turn(), failedTurns.get(0).turn());

      PassResult r =
          Analyzer.builder()
              .queue(queue)
              .emobank(tmp.resolve("bank"))
              .out(tmp.resolve("out"))
              .now(events.stream().map(Event::ts).max(Comparator.naturalOrder()).get())
              .build()
              .run()
              .result();
      assertEquals(3, r.eventsDeposited());
      assertTrue(r.alarm().score() > 0, r.alarm().line());
      assertTrue(
          r.alarm().reasons().stream().anyMatch(x -> x.source().equals("failed_calls")),
          r.alarm().line());
    }
  }
}
