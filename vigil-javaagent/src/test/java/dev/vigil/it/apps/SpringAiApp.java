package dev.vigil.it.apps;

import java.util.List;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.DefaultToolCallingManager;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.support.ToolCallbacks;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.annotation.Tool;

/**
 * Spring AI tools without a model: a {@code MethodToolCallback} called directly twice, then two
 * tool calls of a hand-made model answer run by Spring AI's own tool-calling manager.
 */
public final class SpringAiApp {
  /** The tools. */
  public static class WeatherTools {
    @Tool(description = "Current weather of a city")
    public String currentWeather(String city) {
      return "Sunny in " + city;
    }
  }

  public static void main(String[] args) {
    ToolCallback[] callbacks = ToolCallbacks.from(new WeatherTools());
    ToolCallback weather = callbacks[0];
    System.out.println(weather.call("{\"city\":\"Paris\"}"));
    System.out.println(weather.call("{\"city\":\"Rome\"}"));

    AssistantMessage answer =
        AssistantMessage.builder()
            .content("")
            .toolCalls(
                List.of(
                    new AssistantMessage.ToolCall(
                        "model_call_a", "function", "currentWeather", "{\"city\":\"Oslo\"}"),
                    new AssistantMessage.ToolCall(
                        "model_call_b", "function", "currentWeather", "{\"city\":\"Bergen\"}")))
            .build();
    Prompt prompt =
        new Prompt(
            List.of(new UserMessage("weather in Norway?")),
            ToolCallingChatOptions.builder().toolCallbacks(callbacks).build());
    var result =
        DefaultToolCallingManager.builder()
            .build()
            .executeToolCalls(prompt, new ChatResponse(List.of(new Generation(answer))));
    System.out.println(result.conversationHistory().size() + " messages");
  }

  private SpringAiApp() {}
}
