package dev.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventJson;
import dev.vigil.orchestrate.Stages;
import dev.vigil.orchestrate.llm.ScriptedOpenAiServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code run --llm}'s judge (docs/DETECTORS.md#the-llm-judge) in a whole pass, through
 * LangChain4j's real OpenAI client against a loopback server: its violation is reported under
 * {@code detectors} and deposited once; a failing server leaves the deterministic findings as they
 * are and the report says so.
 */
class JudgePassTest {
  private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final String RULE = "Never cancel an order that has shipped.";

  @TempDir Path tmp;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String baseUrl, String name, String... extra) throws IOException {
    out.getBuffer().setLength(0);
    err.getBuffer().setLength(0);
    Map<String, String> env =
        baseUrl == null
            ? Map.of()
            : Map.of("VIGIL_LLM_BASE_URL", baseUrl, "VIGIL_LLM_MODEL", "scripted-model");
    CommandLine cli =
        new CommandLine(new RunCommand(Clock.fixed(NOW, ZoneOffset.UTC), Stages.defaults(), env));
    cli.setOut(new PrintWriter(out, true)).setErr(new PrintWriter(err, true));
    cli.setExecutionExceptionHandler(Main.EXCEPTIONS);
    List<String> args =
        new ArrayList<>(
            List.of(
                "--events",
                events().toString(),
                "--emobank",
                tmp.resolve("bank-" + name).toString(),
                "--out",
                tmp.resolve("out-" + name).toString(),
                "--now",
                NOW.toString(),
                "--prompt",
                prompt().toString()));
    if (baseUrl != null) {
      args.add("--llm");
    }
    args.addAll(List.of(extra));
    return cli.execute(args.toArray(String[]::new));
  }

  private Path prompt() throws IOException {
    return Files.writeString(
        tmp.resolve("prompt.txt"),
        "## BEGIN_CORE_IDENTITY\nYou are the shop's assistant.\n"
            + RULE
            + "\n## END_CORE_IDENTITY\n## BEGIN_ADAPTIVE_SECTION\n## END_ADAPTIVE_SECTION\n");
  }

  private static Event event(
      int minute, String turn, String kind, String status, ObjectNode payload) {
    return new Event(
        NOW.minusSeconds(3600 - 60L * minute),
        kind,
        status,
        payload,
        "shop",
        (long) minute,
        7L,
        "main",
        turn,
        null,
        turn == null ? null : "s1");
  }

  private static ObjectNode call(String tool, String result) {
    ObjectNode p = MAPPER.createObjectNode().put("tool", tool);
    p.putObject("args").put("order_id", 42);
    p.put("result", result);
    return p;
  }

  /**
   * A look-up turn, a turn that cancels the shipped order, and three rephrased stock failures (a
   * plateau).
   */
  private Path events() throws IOException {
    List<Event> events =
        new ArrayList<>(
            List.of(
                event(
                    1,
                    "t1",
                    "turn.user",
                    "ok",
                    MAPPER.createObjectNode().put("text", "Where is order 42?")),
                event(
                    2, "t1", "tool.get_order", "ok", call("get_order", "{\"status\":\"shipped\"}")),
                event(
                    3,
                    "t1",
                    "turn.answer",
                    "ok",
                    MAPPER.createObjectNode().put("text", "It has shipped.")),
                event(
                    4,
                    "t2",
                    "turn.user",
                    "ok",
                    MAPPER.createObjectNode().put("text", "Cancel it.")),
                event(
                    5,
                    "t2",
                    "tool.cancel_order",
                    "ok",
                    call("cancel_order", "{\"cancelled\":true}")),
                event(
                    6,
                    "t2",
                    "turn.answer",
                    "ok",
                    MAPPER.createObjectNode().put("text", "Order 42 has been cancelled."))));
    String[] messages = {
      "stock service unavailable for warehouse north",
      "warehouse north stock service unavailable",
      "the stock service for warehouse north is unavailable"
    };
    for (int i = 0; i < messages.length; i++) {
      ObjectNode p = MAPPER.createObjectNode().put("tool", "get_stock");
      p.putObject("error").put("type", "IllegalStateException").put("message", messages[i]);
      events.add(event(10 + i, null, "tool.get_stock", "fail", p));
    }
    StringBuilder sb = new StringBuilder();
    events.forEach(e -> sb.append(EventJson.write(e)).append('\n'));
    return Files.writeString(tmp.resolve("events.jsonl"), sb.toString());
  }

  private JsonNode report(String name) throws IOException {
    return MAPPER.readTree(tmp.resolve("out-" + name + "/report.json").toFile());
  }

  private static JsonNode detector(JsonNode report, String name) {
    for (JsonNode d : report.get("detectors")) {
      if (d.get("name").asText().equals(name)) {
        return d;
      }
    }
    throw new AssertionError("no detector " + name + " in " + report.get("detectors"));
  }

  private static ArrayNode withoutJudge(JsonNode report) {
    ArrayNode a = MAPPER.createArrayNode();
    report
        .get("detectors")
        .forEach(
            d -> {
              if (!d.get("name").asText().equals("judge")) {
                a.add(d);
              }
            });
    return a;
  }

  private long judgeRows(String name) throws IOException {
    return Files.readAllLines(tmp.resolve("bank-" + name + "/emotions.jsonl")).stream()
        .filter(l -> l.contains("\"judge.violation:fail\""))
        .count();
  }

  /**
   * The LLM walks the stages; inside update_eb_from_logs the judge asks about the one turn that
   * wrote.
   */
  private static List<ObjectNode> script() {
    return List.of(
        ScriptedOpenAiServer.toolCall("update_eb_from_logs", "{}"),
        ScriptedOpenAiServer.answer(
            MAPPER
                .createObjectNode()
                .put("violation", true)
                .put("rule", RULE)
                .put("reason", "get_order said shipped, then cancel_order ran")
                .toString()),
        ScriptedOpenAiServer.toolCall("diagnose_rbt", "{}"),
        ScriptedOpenAiServer.toolCall("build_prompt_patch", "{}"),
        ScriptedOpenAiServer.toolCall("save_proposal", "{}"));
  }

  @Test
  void theJudgesViolationIsReportedUnderDetectorsAndDepositedOnce() throws Exception {
    for (int pass = 1; pass <= 2; pass++) {
      try (ScriptedOpenAiServer s = new ScriptedOpenAiServer(script(), null)) {
        assertEquals(0, run(s.baseUrl(), "llm"), err.toString());
        assertEquals(5, s.requests().size());
        assertTrue(
            s.userMessagesIn(1).get(0).contains("Answer: \"Order 42 has been cancelled.\""),
            s.userMessagesIn(1).toString());
        JsonNode r = report("llm");
        assertEquals("completed", r.at("/llm/outcome").asText(), r.get("llm").toString());
        JsonNode judge = detector(r, "judge");
        assertEquals(1, judge.get("count").asInt());
        assertEquals(1, judge.at("/evidence/judged").asInt());
        assertEquals("[4,5,6]", judge.at("/evidence/verdicts/0/refs").toString());
        assertEquals(
            "1 violation in 1 turn with a write or a claim; turn t2 broke \"" + RULE + "\"",
            judge.get("summary").asText());
        assertEquals(
            1,
            detector(r, "failure_plateau").get("count").asInt(),
            "the deterministic detectors ran too");
        assertEquals(pass == 1 ? 2 : 0, r.get("derived_events_deposited").asInt(), "pass " + pass);
        assertEquals(1, judgeRows("llm"), "pass " + pass + ": the violation is deposited once");
        String md = Files.readString(tmp.resolve("out-llm/report.md"));
        assertTrue(md.contains("| judge | 1 | 1 violation in 1 turn with a write or a claim"), md);
        assertTrue(out.toString().contains("detector judge: 1 violation"), out.toString());
      }
    }
  }

  @Test
  void aDeadServerLeavesTheDeterministicFindingsAsTheyAreAndSaysSo() throws Exception {
    assertEquals(0, run(null, "plain"), err.toString());
    int port;
    try (ServerSocket closed = new ServerSocket(0)) {
      port = closed.getLocalPort();
    }
    assertEquals(0, run("http://127.0.0.1:" + port + "/v1", "dead"), err.toString());
    JsonNode plain = report("plain");
    JsonNode dead = report("dead");
    assertEquals(withoutJudge(plain), withoutJudge(dead));
    assertEquals(plain.get("rbt"), dead.get("rbt"));
    assertEquals(plain.get("derived_events_deposited"), dead.get("derived_events_deposited"));
    JsonNode judge = detector(dead, "judge");
    assertEquals(0, judge.get("count").asInt());
    assertEquals("server", judge.at("/evidence/stopped").asText());
    assertTrue(
        judge
            .get("summary")
            .asText()
            .startsWith("stopped after 0 of 1 turns: server (the LLM server failed: "),
        judge.toString());
    assertTrue(
        Files.readString(tmp.resolve("out-dead/report.md"))
            .contains("| judge | 0 | stopped after 0 of 1 " + "turns: server"));
    assertEquals(0, judgeRows("dead"));
  }
}
