package dev.vigil.ingest.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.observe.Event;
import dev.vigil.observe.EventJson;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** OTLP JSON written by the real OpenTelemetry SDK, read into Vigil's events. */
class OtlpFileTest {
  private static final Instant T0 = Instant.parse("2026-11-20T10:00:00Z");

  @TempDir Path tmp;

  private static Instant at(long millis) {
    return T0.plusMillis(millis);
  }

  private static Attributes genAi(String operation, String... more) {
    return GenAiTurns.genAi(operation, more);
  }

  private static String userMessages(String text) {
    return GenAiTurns.userMessages(text);
  }

  private static String answerMessages(String text) {
    return GenAiTurns.answerMessages(text);
  }

  private static void agentTurn(SdkTraces sdk) {
    GenAiTurns.bookingTurn(sdk, T0, "conv-7");
  }

  private Path write(String... lines) throws IOException {
    return Files.writeString(tmp.resolve("traces.jsonl"), String.join("\n", lines) + "\n");
  }

  private List<Event> events(Path jsonl) throws Exception {
    List<Event> out = new ArrayList<>();
    for (String line : Files.readAllLines(jsonl)) {
      out.add(EventJson.read(line, ZoneOffset.UTC).event());
    }
    return out;
  }

  @Test
  void anAgentTurnBecomesUserToolsAndAnswerSharingTurnSessionAndAgent() throws Exception {
    String line;
    try (SdkTraces sdk = new SdkTraces("concierge")) {
      agentTurn(sdk);
      line = SdkTraces.jsonLine(sdk.take());
    }
    Path jsonl = tmp.resolve("events.jsonl");
    OtlpFile.Converted c = OtlpFile.toJsonl(write(line), jsonl);
    assertEquals(5, c.spans());
    assertEquals(4, c.events());
    assertEquals(Map.of(), c.skipped().skipped());
    List<Event> e = events(jsonl);
    assertEquals(
        List.of("turn.user", "tool.find_restaurant", "tool.book_table", "turn.answer"),
        e.stream().map(Event::kind).toList());
    for (Event x : e) {
      assertEquals("concierge", x.agent());
      assertEquals("conv-7", x.session());
      assertEquals(e.get(0).turn(), x.turn());
    }
    assertEquals(16, e.get(0).turn().length(), "the agent span's id: " + e.get(0));
    assertEquals(T0, e.get(0).ts());
    assertEquals("Book a table for two at 8", e.get(0).payload().get("text").asText());

    Event find = e.get(1);
    assertEquals("ok", find.status());
    assertEquals(at(410), find.ts());
    assertEquals("call_1", find.callId());
    assertEquals("findRestaurant", find.payload().get("tool").asText());
    assertEquals("Luigi's", find.payload().at("/args/name").asText());
    assertEquals(42, find.payload().at("/result/id").asInt());
    assertEquals(50.0, find.payload().get("duration_ms").asDouble());

    Event book = e.get(2);
    assertEquals("timeout", book.status(), "a SocketTimeoutException is a timeout: " + book);
    assertFalse(book.payload().has("result"));
    assertEquals("java.net.SocketTimeoutException", book.payload().at("/error/type").asText());
    assertEquals("booking service did not answer", book.payload().at("/error/message").asText());
    assertTrue(
        book.payload().at("/error/frames/0").asText().startsWith("dev.vigil.ingest.otlp."),
        "frames from the exception event's stack trace: " + book.payload());

    Event answer = e.get(3);
    assertEquals(at(5910), answer.ts());
    assertEquals("Your table is booked for 8pm.", answer.payload().get("text").asText());
    assertEquals(2, answer.payload().get("tool_calls").asInt());
    assertEquals("ok", answer.status());
  }

  @Test
  void withoutAnAgentSpanTheTraceIsTheTurnAndTheModelCallsGiveItsText() throws Exception {
    String first;
    String second;
    try (SdkTraces sdk = new SdkTraces("helper")) {
      Span root = sdk.start("POST /ask", null, at(0), Attributes.empty());
      Span chat =
          sdk.start(
              "chat m",
              root,
              at(5),
              genAi(
                  "chat",
                  "gen_ai.input.messages",
                  userMessages("What is the weather in Lisbon?"),
                  "gen_ai.output.messages",
                  "[{\"role\":\"assistant\",\"parts\":[{\"type\":\"tool_call\",\"id\":\"c1\","
                      + "\"name\":\"weather\",\"arguments\":{\"city\":\"Lisbon\"}}]}]"));
      SdkTraces.end(chat, at(100));
      Span tool =
          sdk.start(
              "execute_tool weather",
              root,
              at(110),
              genAi("execute_tool", "gen_ai.tool.call.arguments", "Lisbon"));
      SdkTraces.end(tool, at(130));
      first = SdkTraces.jsonLine(sdk.take()); // spans end and are exported before their parents
      Span again =
          sdk.start(
              "chat m",
              root,
              at(140),
              genAi("chat", "gen_ai.output.messages", answerMessages("Sunny, 21 degrees.")));
      SdkTraces.end(again, at(300));
      SdkTraces.end(root, at(310));
      second = SdkTraces.jsonLine(sdk.take());
    }
    Path jsonl = tmp.resolve("events.jsonl");
    OtlpFile.Converted c = OtlpFile.toJsonl(write(first, second), jsonl);
    assertEquals(Map.of(SpanRole.NOT_GENAI, 1L), c.skipped().skipped());
    List<Event> e = events(jsonl);
    assertEquals(
        List.of("turn.user", "tool.weather", "turn.answer"), e.stream().map(Event::kind).toList());
    assertEquals("What is the weather in Lisbon?", e.get(0).payload().get("text").asText());
    assertEquals(at(5), e.get(0).ts());
    assertEquals("Lisbon", e.get(1).payload().at("/args/input").asText(), "not JSON: {input}");
    assertEquals("Sunny, 21 degrees.", e.get(2).payload().get("text").asText());
    assertEquals(at(300), e.get(2).ts());
    assertNull(e.get(0).session());
    assertEquals(e.get(0).turn(), e.get(1).turn());
    assertEquals(e.get(0).turn(), e.get(2).turn());
  }

  @Test
  void badLinesUnmappedSpansAndRepeatsAreCountedAndSkipped() throws Exception {
    String line;
    try (SdkTraces sdk = new SdkTraces("concierge")) {
      agentTurn(sdk);
      Span embed = sdk.start("embeddings m", null, at(0), genAi("embeddings"));
      SdkTraces.end(embed, at(10));
      Span nameless = sdk.start("execute_tool", null, at(20), genAi("execute_tool"));
      SdkTraces.end(nameless, at(30));
      line = SdkTraces.jsonLine(sdk.take());
    }
    Path jsonl = tmp.resolve("events.jsonl");
    OtlpFile.Converted c =
        OtlpFile.toJsonl(
            write(
                line,
                "not json at all",
                "{\"resourceSpans\":5}",
                "{\"resourceSpans\":[{\"scopeSpans\":[{\"spans\":[{\"traceId\":\"zz\"}]}]}]}",
                line),
            jsonl);
    assertEquals(
        Map.of(
            "otlp_not_json",
            1L,
            "otlp_not_traces",
            2L,
            SpanRole.UNMAPPED,
            1L,
            ToolSpans.WITHOUT_NAME,
            1L,
            OtlpFile.DUPLICATE,
            7L),
        c.skipped().skipped());
    assertEquals(14, c.spans());
    assertEquals(4, events(jsonl).size(), "the repeated line adds nothing");
  }

  @Test
  void aMissingFileIsNamed() {
    Path missing = tmp.resolve("none.jsonl");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> OtlpFile.toJsonl(missing, tmp.resolve("events.jsonl")));
    assertEquals("OTLP file " + missing + " does not exist", e.getMessage());
  }
}
