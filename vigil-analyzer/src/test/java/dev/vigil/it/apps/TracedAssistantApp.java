package dev.vigil.it.apps;

import dev.langchain4j.agent.tool.Tool;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Scope;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * A LangChain4j AI service that also traces itself by the GenAI semantic conventions, as an
 * application instruments its own agent and tools: an {@code invoke_agent} span around each user
 * message, an {@code execute_tool} span in each tool, sent by the OpenTelemetry SDK's OTLP/HTTP
 * exporter to the endpoint in {@code args[0]}. Run under {@code -javaagent:vigil.jar}, one
 * conversation is recorded both ways. Two sessions: alice plans her evening (two tools) and then
 * asks to cancel a reminder, which fails while the answer says it is done; bob sets a reminder.
 */
public final class TracedAssistantApp {
  /** The AI service. */
  public interface Assistant {
    String chat(@MemoryId String user, @dev.langchain4j.service.UserMessage String message);
  }

  static Tracer tracer;

  /** Tools that trace themselves. */
  public static class Tools {
    @Tool("Sets a reminder")
    public String setReminder(String when, String task) {
      return traced(
          "setReminder",
          "{\"when\":\"" + when + "\",\"task\":\"" + task + "\"}",
          () -> "Reminder set: " + task + " " + when);
    }

    @Tool(name = "book_hotel", value = "Books a hotel")
    public String bookHotel(String city, int nights) {
      return traced(
          "book_hotel",
          "{\"city\":\"" + city + "\",\"nights\":" + nights + "}",
          () -> "Booked " + nights + " nights in " + city);
    }

    @Tool("Deletes a reminder")
    public String deleteReminder(String id) {
      return traced(
          "deleteReminder",
          "{\"id\":\"" + id + "\"}",
          () -> {
            throw new IllegalStateException("no reminder " + id);
          });
    }
  }

  static String traced(String tool, String args, Supplier<String> work) {
    Span span =
        tracer
            .spanBuilder("execute_tool " + tool)
            .setAllAttributes(
                Attributes.builder()
                    .put("gen_ai.operation.name", "execute_tool")
                    .put("gen_ai.tool.name", tool)
                    .put("gen_ai.tool.call.arguments", args)
                    .build())
            .startSpan();
    try (Scope s = span.makeCurrent()) {
      String result = work.get();
      span.setAttribute("gen_ai.tool.call.result", result);
      return result;
    } catch (RuntimeException e) {
      span.recordException(e);
      span.setStatus(StatusCode.ERROR, e.getMessage());
      span.setAttribute("error.type", e.getClass().getName());
      throw e;
    } finally {
      span.end();
    }
  }

  /** The script: "plan" asks for two tools, "cancel" for one that fails, "remind" for one. */
  static final class Script implements ChatModel {
    private final AtomicInteger ids = new AtomicInteger();

    @Override
    public ChatResponse doChat(ChatRequest request) {
      List<ChatMessage> messages = request.messages();
      String user = "";
      for (ChatMessage m : messages) {
        if (m instanceof UserMessage u) {
          user = u.singleText();
        }
      }
      boolean toolsDone = !(messages.get(messages.size() - 1) instanceof UserMessage);
      if (user.startsWith("plan")) {
        return toolsDone
            ? answer("Your evening is planned.")
            : calls(
                call("setReminder", "{\"when\":\"at 19:00\",\"task\":\"dinner\"}"),
                call("book_hotel", "{\"city\":\"Oslo\",\"nights\":1}"));
      }
      if (user.startsWith("cancel")) {
        return toolsDone
            ? answer("Your reminder has been deleted.")
            : calls(call("deleteReminder", "{\"id\":\"r-9\"}"));
      }
      return toolsDone
          ? answer("Reminder set.")
          : calls(call("setReminder", "{\"when\":\"tomorrow\",\"task\":\"call mum\"}"));
    }

    private ToolExecutionRequest call(String name, String args) {
      return ToolExecutionRequest.builder()
          .id("call_" + ids.incrementAndGet())
          .name(name)
          .arguments(args)
          .build();
    }

    private static ChatResponse calls(ToolExecutionRequest... calls) {
      return ChatResponse.builder().aiMessage(AiMessage.from(List.of(calls))).build();
    }

    private static ChatResponse answer(String text) {
      return ChatResponse.builder().aiMessage(AiMessage.from(text)).build();
    }
  }

  public static void main(String[] args) {
    SdkTracerProvider provider =
        SdkTracerProvider.builder()
            .setResource(
                Resource.create(Attributes.of(AttributeKey.stringKey("service.name"), "assistant")))
            .addSpanProcessor(
                BatchSpanProcessor.builder(
                        OtlpHttpSpanExporter.builder().setEndpoint(args[0]).build())
                    .build())
            .build();
    tracer = provider.get("traced-assistant");
    Assistant assistant =
        AiServices.builder(Assistant.class)
            .chatModel(new Script())
            .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(50))
            .tools(new Tools())
            .build();
    chat(assistant, "alice", "plan my evening");
    chat(assistant, "bob", "remind me tomorrow to call mum");
    chat(assistant, "alice", "cancel reminder r-9");
    provider.forceFlush().join(30, TimeUnit.SECONDS);
    provider.shutdown().join(30, TimeUnit.SECONDS);
  }

  private static void chat(Assistant assistant, String user, String message) {
    Span span =
        tracer
            .spanBuilder("invoke_agent assistant")
            .setAllAttributes(
                Attributes.builder()
                    .put("gen_ai.operation.name", "invoke_agent")
                    .put("gen_ai.conversation.id", user)
                    .put("gen_ai.input.messages", messages("user", message))
                    .build())
            .startSpan();
    try (Scope s = span.makeCurrent()) {
      String answer = assistant.chat(user, message);
      span.setAttribute("gen_ai.output.messages", messages("assistant", answer));
      System.out.println(user + " <- " + answer);
    } finally {
      span.end();
    }
  }

  private static String messages(String role, String text) {
    return "[{\"role\":\""
        + role
        + "\",\"parts\":[{\"type\":\"text\",\"content\":\""
        + text.replace("\"", "\\\"")
        + "\"}]}]";
  }

  private TracedAssistantApp() {}
}
