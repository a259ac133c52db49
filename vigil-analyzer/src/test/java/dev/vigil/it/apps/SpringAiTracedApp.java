package dev.vigil.it.apps;

import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.handler.DefaultTracingObservationHandler;
import io.micrometer.tracing.otel.bridge.OtelBaggageManager;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.advisor.ToolCallingAdvisor;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.DefaultToolCallingManager;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.execution.DefaultToolExecutionExceptionProcessor;

/**
 * A Spring AI {@code ChatClient} whose observations become OpenTelemetry spans, as in a Spring Boot
 * application with Micrometer Tracing's OpenTelemetry bridge: the observation registry's tracing
 * handler, the OpenTelemetry SDK, and its OTLP/HTTP exporter to the endpoint in {@code args[0]}.
 * The application adds no span of its own: what reaches Vigil is what Spring AI observes. Three
 * prompts: the weather (a tool that answers), a booking (a tool that fails, twice in two prompts).
 */
public final class SpringAiTracedApp {
  /** The tools. */
  public static class TravelTools {
    @Tool(description = "Current weather of a city")
    public String currentWeather(String city) {
      return "Sunny in " + city;
    }

    @Tool(name = "book_hotel", description = "Books a hotel")
    public String bookHotel(String city, int nights) {
      throw new IllegalStateException("no rooms left in " + city);
    }
  }

  /** Plays the script by the user message's first word; answers once the tool results are in. */
  static final class ScriptedModel implements ChatModel {
    private final AtomicInteger ids = new AtomicInteger();

    @Override
    public ChatResponse call(Prompt prompt) {
      List<Message> messages = prompt.getInstructions();
      String user = prompt.getUserMessage().getText();
      boolean toolsDone = messages.get(messages.size() - 1) instanceof ToolResponseMessage;
      if (user.startsWith("weather")) {
        return toolsDone ? answer("Sunny.") : calls(call("currentWeather", "{\"city\":\"Oslo\"}"));
      }
      return toolsDone
          ? answer("Booked.")
          : calls(call("book_hotel", "{\"city\":\"Oslo\",\"nights\":2}"));
    }

    @Override
    public ChatOptions getOptions() {
      return ToolCallingChatOptions.builder().build();
    }

    private AssistantMessage.ToolCall call(String name, String args) {
      return new AssistantMessage.ToolCall("sai_" + ids.incrementAndGet(), "function", name, args);
    }

    private static ChatResponse calls(AssistantMessage.ToolCall... calls) {
      AssistantMessage message =
          AssistantMessage.builder().content("").toolCalls(List.of(calls)).build();
      return new ChatResponse(List.of(new Generation(message)));
    }

    private static ChatResponse answer(String text) {
      return new ChatResponse(
          List.of(new Generation(AssistantMessage.builder().content(text).build())));
    }
  }

  public static void main(String[] args) {
    SdkTracerProvider provider =
        SdkTracerProvider.builder()
            .setResource(
                Resource.create(Attributes.of(AttributeKey.stringKey("service.name"), "travel")))
            .addSpanProcessor(
                BatchSpanProcessor.builder(
                        OtlpHttpSpanExporter.builder().setEndpoint(args[0]).build())
                    .build())
            .build();
    OtelCurrentTraceContext context = new OtelCurrentTraceContext();
    OtelTracer tracer =
        new OtelTracer(
            provider.get("spring-ai"),
            context,
            event -> {},
            new OtelBaggageManager(context, List.of(), List.of()));
    ObservationRegistry registry = ObservationRegistry.create();
    registry.observationConfig().observationHandler(new DefaultTracingObservationHandler(tracer));
    ChatClient client =
        ChatClient.builder(
                new ScriptedModel(),
                registry,
                null,
                null,
                ToolCallingAdvisor.builder()
                    .toolCallingManager(
                        DefaultToolCallingManager.builder()
                            .observationRegistry(registry)
                            // spring.ai.tools.throw-exception-on-error=true: a failing tool fails
                            // the call, and its observation records the error
                            .toolExecutionExceptionProcessor(
                                new DefaultToolExecutionExceptionProcessor(true))
                            .build()))
            .defaultTools(new TravelTools())
            .build();
    for (String user : List.of("weather in Oslo?", "book a room in Oslo", "book a room again")) {
      try {
        System.out.println(user + " <- " + client.prompt().user(user).call().content());
      } catch (RuntimeException e) {
        System.out.println(user + " <- failed: " + e);
      }
    }
    provider.forceFlush().join(30, TimeUnit.SECONDS);
    provider.shutdown().join(30, TimeUnit.SECONDS);
  }

  private SpringAiTracedApp() {}
}
