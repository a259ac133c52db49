package dev.vigil.ingest.otlp;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import java.net.SocketTimeoutException;
import java.time.Instant;

/** GenAI spans of an agent's turns, made by the real SDK, for the tests of traces in. */
public final class GenAiTurns {
  private GenAiTurns() {}

  /** Attributes of a GenAI span of {@code operation}, with more key and value pairs. */
  public static Attributes genAi(String operation, String... more) {
    var b = Attributes.builder().put("gen_ai.operation.name", operation);
    for (int i = 0; i < more.length; i += 2) {
      b.put(more[i], more[i + 1]);
    }
    return b.build();
  }

  /** {@code gen_ai.input.messages}: a system message, then the user's {@code text}. */
  public static String userMessages(String text) {
    return "[{\"role\":\"system\",\"parts\":[{\"type\":\"text\",\"content\":\"Be brief.\"}]},"
        + "{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"content\":\""
        + text
        + "\"}]}]";
  }

  /** {@code gen_ai.output.messages}: the assistant's {@code text}. */
  public static String answerMessages(String text) {
    return "[{\"role\":\"assistant\",\"parts\":[{\"type\":\"text\",\"content\":\""
        + text
        + "\"}],\"finish_reason\":\"stop\"}]";
  }

  /**
   * One turn of an agent in the GenAI conventions, from {@code t0}: the agent, a model call, two
   * tools (the second times out), a model call; the answer says the table is booked.
   */
  public static void bookingTurn(SdkTraces sdk, Instant t0, String conversation) {
    Span agent =
        sdk.start(
            "invoke_agent concierge",
            null,
            t0.plusMillis(0),
            genAi(
                "invoke_agent",
                "gen_ai.conversation.id",
                conversation,
                "gen_ai.input.messages",
                userMessages("Book a table for two at 8"),
                "gen_ai.output.messages",
                answerMessages("Your table is booked for 8pm.")));
    Span chat = sdk.start("chat gpt-4o", agent, t0.plusMillis(10), genAi("chat"));
    SdkTraces.end(chat, t0.plusMillis(400));
    Span find =
        sdk.start(
            "execute_tool find_restaurant",
            agent,
            t0.plusMillis(410),
            genAi(
                "execute_tool",
                "gen_ai.tool.name",
                "findRestaurant",
                "gen_ai.tool.call.id",
                "call_1",
                "gen_ai.tool.call.arguments",
                "{\"name\":\"Luigi's\"}",
                "gen_ai.tool.call.result",
                "{\"id\":42,\"open\":true}"));
    SdkTraces.end(find, t0.plusMillis(460));
    Span book =
        sdk.start(
            "execute_tool book_table",
            agent,
            t0.plusMillis(470),
            genAi(
                "execute_tool",
                "gen_ai.tool.name",
                "bookTable",
                "gen_ai.tool.call.id",
                "call_2",
                "gen_ai.tool.call.arguments",
                "{\"restaurant\":42,\"time\":\"20:00\"}"));
    SdkTraces.fail(
        book, t0.plusMillis(5470), new SocketTimeoutException("booking service did not answer"));
    Span last = sdk.start("chat gpt-4o", agent, t0.plusMillis(5480), genAi("chat"));
    SdkTraces.end(last, t0.plusMillis(5900));
    SdkTraces.end(agent, t0.plusMillis(5910));
  }
}
