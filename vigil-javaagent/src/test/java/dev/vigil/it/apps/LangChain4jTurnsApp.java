package dev.vigil.it.apps;

import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.langchain4j.service.V;
import java.util.List;

/**
 * A LangChain4j AI service with a scripted model, a chat memory per user ({@code @MemoryId}) and a
 * content retriever (so the model sees the user message augmented): two conversations, a turn
 * without tools, a turn whose model fails, a templated method, the proxy's {@code toString}, and a
 * second service that runs its tools concurrently.
 */
public final class LangChain4jTurnsApp {
  /** The AI service. */
  public interface Assistant {
    String chat(@MemoryId String user, @UserMessage String message);

    @UserMessage("Translate to French: {{text}}")
    String translate(@V("text") String text);
  }

  public static void main(String[] args) {
    ScriptedTurnsModel model = new ScriptedTurnsModel();
    Assistant assistant =
        AiServices.builder(Assistant.class)
            .chatModel(model)
            .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(50))
            .contentRetriever(query -> List.of(Content.from("Opening hours: 9 to 17")))
            .tools(new ReminderTools())
            .build();
    say("alice", assistant.chat("alice", "plan my evening"));
    say(
        "bob",
        assistant.chat("bob", "remind me to rotate my key sk-proj4f7c1d2e9b8a7f6e5d4c3b2a1"));
    say("alice", assistant.chat("alice", "thanks"));
    try {
      assistant.chat("bob", "explode");
    } catch (RuntimeException e) {
      say("bob", "failed: " + e.getMessage());
    }
    say("translate", assistant.translate("good night"));
    say("proxy", assistant.toString().isEmpty() ? "empty" : "named");

    Assistant concurrent =
        AiServices.builder(Assistant.class)
            .chatModel(model)
            .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(50))
            .tools(new ReminderTools())
            .executeToolsConcurrently()
            .build();
    say("carol", concurrent.chat("carol", "plan my evening"));
  }

  private static void say(String who, String text) {
    System.out.println(who + " <- " + text);
  }

  private LangChain4jTurnsApp() {}
}
