package dev.vigil.it.apps;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.service.AiServices;
import java.util.ArrayList;
import java.util.List;

/**
 * A LangChain4j AI service whose model is scripted (no network): three user messages; the first
 * makes two tool calls, the second a failing and a timing-out one, the third ten calls.
 */
public final class LangChain4jApp {
  /** The AI service. */
  public interface Assistant {
    String chat(String message);
  }

  /**
   * Answers a user message with the tool calls scripted for it, then with text once the results are
   * in.
   */
  static final class ScriptedModel implements ChatModel {
    @Override
    public ChatResponse doChat(ChatRequest request) {
      List<ChatMessage> messages = request.messages();
      ChatMessage last = messages.get(messages.size() - 1);
      if (!(last instanceof UserMessage user)) {
        return ChatResponse.builder().aiMessage(AiMessage.from("done")).build();
      }
      String text = user.singleText();
      List<ToolExecutionRequest> calls = new ArrayList<>();
      if (text.startsWith("plan")) {
        calls.add(call("call_1", "setReminder", "{\"when\":\"in 30 minutes\",\"task\":\"tea\"}"));
        calls.add(call("call_2", "book_hotel", "{\"city\":\"Oslo\",\"nights\":2}"));
      } else if (text.startsWith("clean")) {
        calls.add(call("call_3", "deleteReminder", "{\"id\":\"r-42\"}"));
        calls.add(call("call_4", "checkCalendar", "{}"));
      } else {
        for (int i = 0; i < 10; i++) {
          calls.add(
              call(
                  "call_1" + i,
                  "setReminder",
                  "{\"when\":\"day " + i + "\",\"task\":\"water plants\"}"));
        }
      }
      return ChatResponse.builder().aiMessage(AiMessage.from(calls)).build();
    }

    private static ToolExecutionRequest call(String id, String name, String args) {
      return ToolExecutionRequest.builder().id(id).name(name).arguments(args).build();
    }
  }

  public static void main(String[] args) {
    Assistant assistant =
        AiServices.builder(Assistant.class)
            .chatModel(new ScriptedModel())
            .chatMemory(MessageWindowChatMemory.withMaxMessages(100))
            .tools(new ReminderTools())
            .build();
    for (String message : List.of("plan my evening", "clean up", "water the plants every day")) {
      System.out.println(message + " -> " + assistant.chat(message));
    }
  }

  private LangChain4jApp() {}
}
