package dev.vigil.orchestrate.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.diagnose.detect.Derived;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.diagnose.detect.WindowEvent;
import dev.vigil.dialogue.Claims;
import dev.vigil.dialogue.ToolRoles;
import dev.vigil.observe.Event;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The LLM judge (docs/DETECTORS.md#the-llm-judge) against a loopback server speaking OpenAI
 * chat-completions, through LangChain4j's real OpenAI client: a violation found, a clean turn, a
 * model that answers nonsense, the budgets, a failing server.
 */
class JudgeTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");
  private static final String RULE = "Never cancel an order that has shipped.";
  private static final String INSTRUCTIONS =
      "You are the shop's assistant.\n- " + RULE + "\n- Confirm with the user before any refund.\n";

  @TempDir Path tmp;

  private final List<WindowEvent> window = new ArrayList<>();

  /** The clock the budget is measured on: tests move it, nothing waits. */
  private Instant now = T0;

  private final Clock clock =
      new Clock() {
        @Override
        public ZoneId getZone() {
          return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
          return this;
        }

        @Override
        public Instant instant() {
          return now;
        }
      };

  private WindowEvent add(
      String session, String turn, String kind, String status, ObjectNode payload) {
    int n = window.size() + 1;
    Event e =
        new Event(
            T0.plusSeconds(10L * n),
            kind,
            status,
            payload,
            "shop",
            (long) n,
            7L,
            "main",
            turn,
            null,
            session);
    WindowEvent w = new WindowEvent(e, 1000 + n, n, false);
    window.add(w);
    return w;
  }

  private void user(String session, String turn, String text) {
    add(session, turn, "turn.user", "ok", MAPPER.createObjectNode().put("text", text));
  }

  private WindowEvent answer(String session, String turn, String text) {
    return add(
        session,
        turn,
        "turn.answer",
        "ok",
        MAPPER.createObjectNode().put("text", text).put("tool_calls", 1));
  }

  private void call(
      String session, String turn, String tool, String args, String status, String result)
      throws IOException {
    ObjectNode p = MAPPER.createObjectNode().put("tool", tool);
    p.set("args", MAPPER.readTree(args));
    p.set("result", MAPPER.readTree(result));
    add(session, turn, "tool." + tool, status, p);
  }

  /**
   * Session s1: a look-up turn, then a cancel of the shipped order; session s2: an item added to
   * the cart.
   */
  private WindowEvent[] shop() throws IOException {
    user("s1", "t1", "Where is my order 42?");
    call("s1", "t1", "get_order", "{\"order_id\":42}", "ok", "{\"status\":\"shipped\"}");
    answer("s1", "t1", "Order 42 has shipped and arrives tomorrow.");
    user("s1", "t2", "Cancel it please.");
    call("s1", "t2", "cancel_order", "{\"order_id\":42}", "ok", "{\"cancelled\":true}");
    WindowEvent cancel = answer("s1", "t2", "Order 42 has been cancelled.");
    user("s2", "t3", "Add a mug to my cart.");
    call("s2", "t3", "add_to_cart", "{\"item\":\"mug\"}", "ok", "{\"cart_size\":1}");
    WindowEvent mug = answer("s2", "t3", "I've added the mug.");
    // no turn id: a turn by position (as the detectors read it), of a look-up alone: nothing to
    // judge
    add(null, null, "tool.get_order", "ok", MAPPER.createObjectNode());
    return new WindowEvent[] {cancel, mug};
  }

  private Judge judge(ScriptedOpenAiServer s, int maxCalls, Path prompt) {
    LlmConfig config =
        LlmConfig.from(
            Map.of("VIGIL_LLM_BASE_URL", s.baseUrl(), "VIGIL_LLM_MODEL", "scripted-model"),
            new java.util.Properties(),
            maxCalls,
            Duration.ofMinutes(2));
    return new Judge(
        config,
        LlmDriver.openAi(config),
        clock,
        prompt,
        t -> ToolRoles.DEFAULTS.ofTool(t) == ToolRoles.Role.WRITE,
        Claims.DEFAULTS);
  }

  private Path prompt() throws IOException {
    return Files.writeString(tmp.resolve("prompt.txt"), INSTRUCTIONS);
  }

  private static ObjectNode verdict(boolean violation, String rule, String reason) {
    return ScriptedOpenAiServer.answer(
        MAPPER
            .createObjectNode()
            .put("violation", violation)
            .put("rule", rule)
            .put("reason", reason)
            .toString());
  }

  @Test
  void aViolationBecomesAJudgeViolationEventCitingTheRule() throws Exception {
    WindowEvent[] answers = shop();
    List<ObjectNode> script =
        List.of(
            verdict(true, RULE, "order 42 had shipped, yet cancel_order was called"),
            verdict(false, "", "the user asked for the mug"));
    try (ScriptedOpenAiServer s = new ScriptedOpenAiServer(script, null)) {
      Detection d = judge(s, 12, prompt()).detect(window);

      assertEquals(
          2,
          s.requests().size(),
          "the look-up turns, with a turn id or placed by position, are not judged");
      String asked = s.userMessagesIn(0).get(0);
      assertTrue(asked.contains(RULE), asked);
      assertTrue(
          asked.contains("user: \"Where is my order 42?\""),
          asked); // earlier evidence of the session
      assertTrue(
          asked.contains(
              "tool get_order args {\"order_id\":42} -> ok, result {\"status\":\"shipped\"}"),
          asked);
      assertTrue(asked.contains("# The turn to judge (session s1, turn t2)"), asked);
      assertTrue(asked.contains("User: \"Cancel it please.\""), asked);
      assertTrue(
          asked.contains(
              "1. tool cancel_order args {\"order_id\":42} -> ok, result {\"cancelled\":true}"),
          asked);
      assertTrue(asked.contains("Answer: \"Order 42 has been cancelled.\""), asked);
      assertEquals(JudgePrompt.SYSTEM, s.requests().get(0).at("/messages/0/content").asText());
      assertTrue(
          s.userMessagesIn(1).get(0).contains("(nothing earlier in the window)"),
          "s2 has no earlier events");

      assertEquals("judge", d.name());
      assertEquals(1, d.count());
      Derived v = d.derived().get(0);
      assertEquals(
          answers[0].identity(), v.sourceIdentity(), "keyed on the turn's answer: deposited once");
      assertEquals("judge.violation", v.event().kind());
      assertEquals("fail", v.event().status());
      assertEquals(answers[0].event().ts(), v.event().ts());
      assertEquals("shop", v.event().agent());
      assertEquals("s1", v.event().session());
      assertEquals("t2", v.event().turn());
      JsonNode p = v.event().payload();
      assertEquals(RULE, p.get("rule").asText());
      assertEquals("order 42 had shipped, yet cancel_order was called", p.get("reason").asText());
      assertEquals("t2", p.get("turn").asText());
      assertEquals("s1", p.get("session").asText());
      assertEquals("[4,5,6]", p.get("refs").toString());

      JsonNode e = d.evidence();
      assertEquals(4, e.get("turns").asInt(), "three with ids and one placed by position");
      assertEquals(2, e.get("turns_to_judge").asInt());
      assertEquals(2, e.get("judged").asInt());
      assertEquals(1, e.get("violations").asInt());
      assertEquals(0, e.get("not_understood").asInt());
      assertEquals(2, e.get("calls").asInt());
      assertTrue(e.get("stopped").isNull());
      assertEquals("[\"cancel_order\"]", e.at("/verdicts/0/writes").toString());
      assertEquals("cancelled", e.at("/verdicts/0/claim").asText());
      assertEquals("clean", e.at("/verdicts/1/verdict").asText());
      assertEquals(
          "1 violation in 2 turns with a write or a claim; turn t2 broke \"" + RULE + "\"",
          d.summary());
    }
  }

  @Test
  void aCleanTurnDerivesNothing() throws Exception {
    user("s1", "t1", "Add a mug.");
    call("s1", "t1", "add_to_cart", "{\"item\":\"mug\"}", "ok", "{\"cart_size\":1}");
    answer("s1", "t1", "The mug is in your cart.");
    try (ScriptedOpenAiServer s =
        new ScriptedOpenAiServer(List.of(verdict(false, "", "as asked")), null)) {
      Detection d = judge(s, 12, prompt()).detect(window);
      assertEquals(1, s.requests().size());
      assertEquals(0, d.count());
      assertTrue(d.derived().isEmpty());
      assertEquals(1, d.evidence().get("judged").asInt());
      assertEquals("as asked", d.evidence().at("/verdicts/0/reason").asText());
      assertEquals("0 violations in 1 turn with a write or a claim", d.summary());
    }
  }

  @Test
  void aClaimWithoutAWriteIsJudgedAndAReadOnlyTurnIsNot() throws Exception {
    user("s1", "t1", "Cancel order 7.");
    call("s1", "t1", "get_order", "{\"order_id\":7}", "ok", "{\"status\":\"open\"}");
    answer("s1", "t1", "I've cancelled order 7 for you."); // claims a write no call made
    user("s1", "t2", "Thanks. What else is open?");
    call("s1", "t2", "list_orders", "{}", "ok", "[]");
    answer("s1", "t2", "Nothing else is open.");
    try (ScriptedOpenAiServer s =
        new ScriptedOpenAiServer(
            List.of(
                verdict(true, "Tell the user only what the tools did.", "no cancel call was made")),
            null)) {
      Detection d = judge(s, 12, null).detect(window);
      assertEquals(1, s.requests().size());
      assertTrue(
          s.userMessagesIn(0).get(0).contains(JudgePrompt.NO_INSTRUCTIONS), "no --prompt: said so");
      assertEquals(1, d.count());
      assertEquals("t1", d.derived().get(0).event().turn());
      assertEquals("[]", d.evidence().at("/verdicts/0/writes").toString());
      assertTrue(d.evidence().get("instructions").isNull());
    }
  }

  @Test
  void aNonsenseAnswerIsCountedAndItsTurnSkipped() throws Exception {
    WindowEvent[] answers = shop();
    List<ObjectNode> script =
        List.of(
            ScriptedOpenAiServer.answer("Looks fine to me, honestly!"),
            ScriptedOpenAiServer.answer(
                "```json\n{\"violation\": true, \"rule\": \"Confirm with the user before any "
                    + "refund.\", \"reason\": \"made up for the test\"}\n```"));
    try (ScriptedOpenAiServer s = new ScriptedOpenAiServer(script, null)) {
      Detection d = judge(s, 12, prompt()).detect(window);
      assertEquals(2, s.requests().size(), "the next turn is still judged");
      assertEquals(1, d.count());
      assertEquals(answers[1].identity(), d.derived().get(0).sourceIdentity());
      JsonNode e = d.evidence();
      assertEquals(1, e.get("not_understood").asInt());
      assertEquals(1, e.get("judged").asInt());
      assertEquals("not_understood", e.at("/verdicts/0/verdict").asText());
      assertEquals("Looks fine to me, honestly!", e.at("/verdicts/0/answer").asText());
      assertTrue(d.summary().endsWith("; 1 answer not understood (turn skipped)"), d.summary());
    }
  }

  @Test
  void anExhaustedCallBudgetStopsTheJudgeAndSaysSo() throws Exception {
    shop();
    try (ScriptedOpenAiServer s =
        new ScriptedOpenAiServer(List.of(verdict(true, RULE, "shipped")), null)) {
      Detection d = judge(s, 1, prompt()).detect(window);
      assertEquals(1, s.requests().size());
      assertEquals(1, d.count(), "what was judged before the budget ran out stands");
      assertEquals("budget", d.evidence().get("stopped").asText());
      assertEquals(
          "stopped after 1 of 2 turns: budget (the budget of 1 calls ran out); 1 violation before that; "
              + "the deterministic findings stand",
          d.summary());
    }
  }

  @Test
  void anExhaustedWallClockBudgetStopsTheJudgeOnTheInjectedClock() throws Exception {
    shop();
    user("s3", "t4", "Book a table.");
    call("s3", "t4", "book_table", "{}", "ok", "{}");
    answer("s3", "t4", "Booked.");
    List<ObjectNode> script =
        List.of(verdict(false, "", "fine"), verdict(false, "", "fine"), verdict(false, "", "fine"));
    // each answer takes 70 s of the injected clock: the budget of 120 s runs out after the second
    try (ScriptedOpenAiServer s =
        new ScriptedOpenAiServer(script, null, () -> now = now.plusSeconds(70))) {
      Detection d = judge(s, 12, prompt()).detect(window);
      assertEquals(2, s.requests().size());
      assertEquals(2, d.evidence().get("judged").asInt());
      assertEquals(
          "the wall-clock budget of 120 s ran out", d.evidence().get("stop_reason").asText());
      assertTrue(
          d.summary()
              .startsWith(
                  "stopped after 2 of 3 turns: budget (the wall-clock budget of 120 s ran "
                      + "out)"),
          d.summary());
    }
  }

  @Test
  void aFailingServerStopsTheJudgeWithTheReasonAndNeverThrows() throws Exception {
    shop();
    List<ObjectNode> script =
        List.of(
            verdict(false, "", "fine"),
            ScriptedOpenAiServer.httpError(500, "the model is overloaded"));
    try (ScriptedOpenAiServer s = new ScriptedOpenAiServer(script, null)) {
      Detection d = judge(s, 12, prompt()).detect(window);
      assertEquals(2, s.requests().size());
      assertEquals(0, d.count());
      assertEquals("server", d.evidence().get("stopped").asText());
      assertTrue(
          d.evidence().get("stop_reason").asText().startsWith("the LLM server failed: "),
          d.evidence().toString());
      assertTrue(
          d.summary().startsWith("stopped after 1 of 2 turns: server (the LLM server failed: "),
          d.summary());
    }
  }

  @Test
  void aTurnAlreadyJudgedIsNotAskedAgain() throws Exception {
    shop();
    List<ObjectNode> script = List.of(verdict(true, RULE, "shipped"), verdict(false, "", "fine"));
    try (ScriptedOpenAiServer s = new ScriptedOpenAiServer(script, null)) {
      Judge judge = judge(s, 12, prompt());
      judge.detect(window);
      Detection again = judge.detect(window);
      assertEquals(2, s.requests().size(), "watch's next pass over the same turns asks nothing");
      assertEquals(1, again.count());
      assertEquals(2, again.evidence().get("reused").asInt());
      assertEquals(0, again.evidence().get("calls").asInt());
    }
  }

  @Test
  void noTurnToJudgeAsksNothing() throws Exception {
    user("s1", "t1", "Where is my order?");
    call("s1", "t1", "get_order", "{}", "ok", "{}");
    answer("s1", "t1", "It is on its way.");
    try (ScriptedOpenAiServer s = new ScriptedOpenAiServer(List.of(), null)) {
      Detection d = judge(s, 12, prompt()).detect(window);
      assertEquals(0, s.requests().size());
      assertNull(d.evidence().get("stopped").textValue());
      assertEquals("no turn made a write call or claimed one: nothing to judge", d.summary());
    }
  }
}
