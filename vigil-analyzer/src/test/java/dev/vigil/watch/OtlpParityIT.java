package dev.vigil.watch;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.api.Analyzer;
import dev.vigil.it.ChildJvm;
import dev.vigil.observe.Event;
import dev.vigil.orchestrate.PassResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One conversation recorded two ways: a LangChain4j application under {@code -javaagent:vigil.jar}
 * that also traces itself by the GenAI conventions and sends its spans, through the real SDK's
 * OTLP/HTTP exporter, to the receiver of {@code watch --otlp-port} ({@code TracedAssistantApp}).
 * The receiver's events equal the agent's, field by field where both have the field, and a pass
 * over each finds the same.
 */
class OtlpParityIT {
  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

  @TempDir Path tmp;

  /** What both recorders say of an event: all but times, ids and where the code ran. */
  private static ObjectNode comparable(Event e) {
    ObjectNode o = JSON.objectNode();
    o.put("kind", e.kind());
    o.put("status", e.status());
    o.put("agent", e.agent());
    o.put("session", e.session());
    JsonNode p = e.payload();
    for (String field : List.of("tool", "args", "result", "text", "tool_calls")) {
      if (p.has(field)) {
        o.set(field, p.get(field));
      }
    }
    if (p.has("error")) {
      o.put("error.type", p.at("/error/type").asText());
      o.put("error.message", p.at("/error/message").asText());
    }
    return o;
  }

  /** The events turn by turn (turns in the order their first event came), each turn in order. */
  private static List<List<ObjectNode>> turns(List<Event> events) {
    Map<String, List<Event>> byTurn = new LinkedHashMap<>();
    events.stream()
        .sorted(Comparator.comparing(Event::ts))
        .forEach(e -> byTurn.computeIfAbsent(e.turn(), k -> new ArrayList<>()).add(e));
    List<List<ObjectNode>> out = new ArrayList<>();
    byTurn.values().forEach(t -> out.add(t.stream().map(OtlpParityIT::comparable).toList()));
    return out;
  }

  @Test
  void theReceiversEventsAndReportEqualTheJavaagents() throws Exception {
    Path agentQueue = tmp.resolve("agent-queue");
    Path otlpQueue = tmp.resolve("otlp-queue");
    try (OtlpIntake otlp =
        OtlpIntake.start("127.0.0.1", 0, tmp.resolve("spool"), otlpQueue, Clock.systemUTC())) {
      ChildJvm.Run run =
          ChildJvm.run(
              ChildJvm.java(),
              null,
              List.of(
                  "-Dvigil.queue.dir=" + agentQueue,
                  "-Dvigil.agent.name=assistant",
                  "-javaagent:" + ChildJvm.agentJar().toAbsolutePath()),
              ChildJvm.applicationClassPath(),
              "dev.vigil.it.apps.TracedAssistantApp",
              "http://127.0.0.1:" + otlp.port() + "/v1/traces");
      assertEquals(0, run.exit(), run.stderr());
      List<Event> recorded = ChildJvm.readQueue(agentQueue);
      assertEquals(10, recorded.size(), recorded.toString());
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> Files.isDirectory(otlpQueue) && ChildJvm.readQueue(otlpQueue).size() >= 10);
      List<Event> received = ChildJvm.readQueue(otlpQueue);

      assertEquals(turns(recorded), turns(received));

      Instant now = recorded.stream().map(Event::ts).max(Comparator.naturalOrder()).get();
      PassResult byAgent = pass(agentQueue, "a", now.plusSeconds(1));
      PassResult byOtlp = pass(otlpQueue, "b", now.plusSeconds(1));
      assertEquals(counts(byAgent), counts(byOtlp));
      assertTrue(counts(byAgent).get("claim_without_action") == 1, counts(byAgent).toString());
      assertEquals(byAgent.alarm().level(), byOtlp.alarm().level());
      assertEquals(byAgent.alarm().score(), byOtlp.alarm().score(), 1e-9);
      assertEquals(byAgent.eventsDeposited(), byOtlp.eventsDeposited());
    }
  }

  private PassResult pass(Path queue, String name, Instant now) throws Exception {
    return Analyzer.builder()
        .queue(queue)
        .emobank(tmp.resolve("bank-" + name))
        .out(tmp.resolve("out-" + name))
        .now(now)
        .build()
        .run()
        .result();
  }

  private static Map<String, Integer> counts(PassResult r) {
    Map<String, Integer> out = new LinkedHashMap<>();
    r.detections().forEach(d -> out.put(d.name(), d.count()));
    return out;
  }
}
