package dev.vigil.it.apps;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisorChain;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.tool.annotation.Tool;

/**
 * A Spring AI {@code ChatClient} with a scripted model (no network), a chat memory and an advisor
 * that augments the user message (as retrieval would): a conversation named by {@code
 * ChatMemory.CONVERSATION_ID} with two turns (one read through {@code content()}, one through
 * {@code chatResponse()} with a templated user text), a turn of a client without chat memory (so
 * without a conversation), and a turn whose model fails.
 */
public final class SpringAiChatClientApp {
  /** The tools. */
  public static class TravelTools {
    @Tool(description = "Current weather of a city")
    public String currentWeather(String city) {
      return "Sunny in " + city;
    }

    @Tool(name = "book_hotel", description = "Books a hotel")
    public String bookHotel(String city, int nights) {
      return "Booked " + nights + " nights in " + city;
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
      if (user.startsWith("explode")) {
        throw new IllegalStateException("model unavailable");
      }
      if (user.startsWith("weather")) {
        // the advisor's context reaches the model, not the user message Vigil records
        return toolsDone
            ? answer(
                user.contains("Context:") ? "Sunny in Oslo and in Bergen; hotels open." : "Sunny.")
            : calls(
                call("currentWeather", "{\"city\":\"Oslo\"}"),
                call("currentWeather", "{\"city\":\"Bergen\"}"));
      }
      if (user.startsWith("book")) {
        return toolsDone
            ? answer("Booked.")
            : calls(call("book_hotel", "{\"city\":\"Oslo\",\"nights\":2}"));
      }
      return answer("Hello!");
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

  /** Appends retrieved context to the user message, as a retrieval advisor would. */
  static final class Augmenting implements CallAdvisor {
    @Override
    public ChatClientResponse adviseCall(ChatClientRequest request, CallAdvisorChain chain) {
      Prompt augmented =
          request
              .prompt()
              .augmentUserMessage(
                  u ->
                      u.mutate()
                          .text(u.getText() + "\n\nContext: the hotels of Oslo are open.")
                          .build());
      return chain.nextCall(request.mutate().prompt(augmented).build());
    }

    @Override
    public String getName() {
      return "augmenting";
    }

    @Override
    public int getOrder() {
      return 0;
    }
  }

  public static void main(String[] args) {
    ChatMemory memory = MessageWindowChatMemory.builder().build();
    ChatClient client =
        ChatClient.builder(new ScriptedModel())
            .defaultTools(new TravelTools())
            .defaultAdvisors(MessageChatMemoryAdvisor.builder(memory).build(), new Augmenting())
            .build();
    List<String> out = new ArrayList<>();
    out.add(
        client
            .prompt()
            .user("weather in Oslo and Bergen?")
            .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "trip-42"))
            .call()
            .content());
    out.add(
        client
            .prompt()
            .user(
                u ->
                    u.text("book {nights} nights in {city}")
                        .param("nights", 2)
                        .param("city", "Oslo"))
            .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "trip-42"))
            .call()
            .chatResponse()
            .getResult()
            .getOutput()
            .getText());
    ChatClient plain = ChatClient.builder(new ScriptedModel()).build();
    out.add(plain.prompt().user("hello").call().content());
    try {
      client
          .prompt()
          .user("explode")
          .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "trip-7"))
          .call()
          .content();
    } catch (RuntimeException e) {
      out.add("failed: " + e.getMessage());
    }
    out.forEach(System.out::println);
  }

  private SpringAiChatClientApp() {}
}
