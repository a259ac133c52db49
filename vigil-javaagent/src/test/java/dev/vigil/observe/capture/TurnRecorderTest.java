package dev.vigil.observe.capture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.vigil.it.ChildJvm;
import dev.vigil.observe.Event;
import dev.vigil.observe.agent.AgentConfig;
import dev.vigil.observe.langchain4j.LangChain4j;
import dev.vigil.observe.writer.EventWriter;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recorder's turns, driven as the inlined advice drives them (enter and exit of each site in
 * call order), written by a real writer into a real queue.
 */
class TurnRecorderTest {
  /** The AI service whose proxy calls are simulated. */
  interface Assistant {
    String chat(@MemoryId String user, @UserMessage String message);
  }

  private static final Method CHAT;

  static {
    try {
      CHAT = Assistant.class.getMethod("chat", String.class, String.class);
    } catch (NoSuchMethodException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  @TempDir Path tmp;

  private final Sites sites = new Sites();
  private static final Framework LANGCHAIN4J = new LangChain4j();
  private final Site proxy =
      sites.register(
          Role.TURN,
          LANGCHAIN4J,
          "dev.langchain4j.service.DefaultAiServices$1",
          "invoke",
          "(proxy)",
          List.of("proxy", "method", "args"),
          null,
          null);
  private final Site invocation =
      sites.register(
          Role.TURN_CONTEXT,
          LANGCHAIN4J,
          "dev.langchain4j.service.DefaultAiServices$1",
          "invoke",
          "(context)",
          List.of("method", "args", "context"),
          null,
          null);
  private final Site executor =
      sites.register(
          Role.FRAMEWORK_TOOL,
          LANGCHAIN4J,
          "dev.langchain4j.service.tool.X",
          "executeWithContext",
          "()",
          List.of("request", "context"),
          null,
          null);
  private final Site tool =
      sites.register(
          Role.TOOL,
          "demo.Tools",
          "setReminder",
          "(when)",
          List.of("when"),
          "setReminder",
          "tool.set_reminder");

  private EventWriter writer;
  private CallRecorder recorder;

  private void start(String... settings) {
    Properties p = new Properties();
    p.setProperty("vigil.queue.dir", tmp.resolve("queue").toString());
    for (String s : settings) {
      p.setProperty(s.substring(0, s.indexOf('=')), s.substring(s.indexOf('=') + 1));
    }
    AgentConfig config = AgentConfig.load(null, p, Map.of(), line -> {});
    writer = new EventWriter(config);
    writer.start();
    recorder = new CallRecorder(sites, writer, config, List.of(LANGCHAIN4J));
  }

  private List<Event> events() throws Exception {
    writer.shutdown(10_000);
    return ChildJvm.readQueue(tmp.resolve("queue"));
  }

  private static InvocationContext context(UUID id, String memoryId) {
    return InvocationContext.builder().invocationId(id).chatMemoryId(memoryId).build();
  }

  /**
   * An AI-service call as LangChain4j makes it: the proxy's handler, then its invoke with the
   * context.
   */
  private Object[] beginTurn(String user, String message, UUID id) {
    Object[] args = {user, message};
    Object outer = recorder.enter(proxy.id(), null, new Object[] {new Object(), CHAT, args});
    Object inner =
        recorder.enter(invocation.id(), null, new Object[] {CHAT, args, context(id, user)});
    return new Object[] {outer, inner};
  }

  private void endTurn(Object[] frames, Object answer, Throwable thrown) {
    recorder.exit(invocation.id(), frames[1], answer, thrown);
    recorder.exit(proxy.id(), frames[0], answer, thrown);
  }

  private void callTool(String when) {
    Object f = recorder.enter(tool.id(), null, new Object[] {when});
    recorder.exit(tool.id(), f, "set " + when, null);
  }

  @Test
  void aTurnFramesItsToolCallsWithLangChain4jsInvocationIdAndMemoryId() throws Exception {
    start();
    UUID id = UUID.randomUUID();
    Object[] turn = beginTurn("alice", "plan my evening", id);
    callTool("at 7");
    callTool("at 8");
    endTurn(turn, "Planned.", null);

    List<Event> events = events();
    assertEquals(
        List.of("turn.user", "tool.set_reminder", "tool.set_reminder", "turn.answer"),
        events.stream().map(Event::kind).toList());
    assertTrue(
        events.stream()
            .allMatch(e -> id.toString().equals(e.turn()) && "alice".equals(e.session())));
    assertEquals("{\"text\":\"plan my evening\"}", events.get(0).payload().toString());
    assertEquals("{\"text\":\"Planned.\",\"tool_calls\":2}", events.get(3).payload().toString());
    assertEquals("ok", events.get(3).status());
  }

  @Test
  void aTurnBeneathAToolCallIsATurnOfItsOwn() throws Exception {
    start();
    UUID outerId = UUID.randomUUID();
    UUID innerId = UUID.randomUUID();
    Object[] outer = beginTurn("alice", "ask the expert", outerId);
    Object expert = recorder.enter(tool.id(), null, new Object[] {"now"});
    Object[] inner = beginTurn("expert-1", "what is best?", innerId);
    callTool("later");
    endTurn(inner, "This.", null);
    recorder.exit(tool.id(), expert, "This.", null);
    endTurn(outer, "The expert says this.", null);

    List<Event> events = events();
    assertEquals(
        List.of(
            "turn.user",
            "turn.user",
            "tool.set_reminder",
            "turn.answer",
            "tool.set_reminder",
            "turn.answer"),
        events.stream().map(Event::kind).toList());
    assertEquals(
        List.of(outerId, innerId, innerId, innerId, outerId, outerId).stream()
            .map(UUID::toString)
            .toList(),
        events.stream().map(Event::turn).toList());
    assertEquals(
        List.of("alice", "expert-1", "expert-1", "expert-1", "alice", "alice"),
        events.stream().map(Event::session).toList());
    assertEquals(1, events.get(3).payload().path("tool_calls").asInt());
    assertEquals(1, events.get(5).payload().path("tool_calls").asInt());
  }

  @Test
  void toolCallsOnOtherThreadsJoinTheTurnByItsInvocationId() throws Exception {
    start();
    UUID id = UUID.randomUUID();
    Object[] turn = beginTurn("carol", "plan", id);
    Thread worker =
        new Thread(
            () -> {
              ToolExecutionRequest request =
                  ToolExecutionRequest.builder()
                      .id("call_9")
                      .name("setReminder")
                      .arguments("{\"when\":\"at 7\"}")
                      .build();
              Object f =
                  recorder.enter(executor.id(), null, new Object[] {request, context(id, "carol")});
              recorder.exit(executor.id(), f, "set", null);
            },
            "tool-worker");
    worker.start();
    worker.join();
    endTurn(turn, "Planned.", null);

    List<Event> events = events();
    assertEquals(
        List.of("turn.user", "tool.set_reminder", "turn.answer"),
        events.stream().map(Event::kind).toList());
    Event call = events.get(1);
    assertEquals("tool-worker", call.thread());
    assertEquals(id.toString(), call.turn());
    assertEquals("carol", call.session());
    assertEquals("call_9", call.callId());
    assertEquals(1, events.get(2).payload().path("tool_calls").asInt());
  }

  @Test
  void aToolCallOutsideATurnHasNeitherTurnNorSession() throws Exception {
    start();
    callTool("at 7");
    Event only = events().get(0);
    assertNull(only.turn());
    assertNull(only.session());
  }

  @Test
  void aFailedCallAnswersWithFailAndTheError() throws Exception {
    start();
    Object[] turn = beginTurn("bob", "explode", UUID.randomUUID());
    endTurn(turn, null, new IllegalStateException("model unavailable"));
    Event answer = events().get(1);
    assertEquals("turn.answer", answer.kind());
    assertEquals("fail", answer.status());
    assertTrue(answer.payload().path("text").isNull());
    assertEquals("model unavailable", answer.payload().path("error").path("message").asText());
  }

  @Test
  void aStreamingCallHasItsUserMessageButNoAnswerYet() throws Exception {
    start();
    Object[] turn = beginTurn("dora", "stream it", UUID.randomUUID());
    endTurn(turn, new CompletableFuture<String>(), null);
    assertEquals(List.of("turn.user"), events().stream().map(Event::kind).toList());
  }

  @Test
  void theProxysOwnMethodsAreNoTurns() throws Exception {
    start();
    Method toString = Object.class.getMethod("toString");
    assertNull(recorder.enter(proxy.id(), null, new Object[] {new Object(), toString, null}));
    callTool("at 7");
    Event only = events().get(0);
    assertNull(only.turn());
  }

  @Test
  void withoutTurnsToolCallsKeepTheirTurnAndSession() throws Exception {
    start("vigil.capture.turns=false");
    UUID id = UUID.randomUUID();
    Object[] turn = beginTurn("alice", "plan my evening", id);
    callTool("at 7");
    endTurn(turn, "Planned.", null);
    List<Event> events = events();
    assertEquals(1, events.size(), events::toString);
    assertEquals(id.toString(), events.get(0).turn());
    assertEquals("alice", events.get(0).session());
  }

  @Test
  void secretsInTheTextAreRedactedAndLongTextsCut() throws Exception {
    start("vigil.capture.max-chars=20");
    Object[] turn =
        beginTurn("alice", "my key is sk-proj4f7c1d2e9b8a7f6e5d4c3b2a1 ok", UUID.randomUUID());
    endTurn(turn, "a very long answer that goes on and on", null);
    List<Event> events = events();
    assertEquals("my key is *** ok", events.get(0).payload().path("text").asText());
    assertEquals("a very long answer t…(+18 chars)", events.get(1).payload().path("text").asText());
  }
}
