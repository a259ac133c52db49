package com.example.robin;

import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.service.AiServices;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;

/**
 * Robin, a reminder agent: reads one user request per line, answers each through a LangChain4j AI service whose
 * tools set, list and cancel reminders on a remote reminder backend.
 *
 * <p>Environment: {@code ROBIN_BACKEND_URL} (required), {@code ROBIN_USER_ZONE} (default Europe/Paris),
 * {@code ROBIN_PROMPT} (default {@code prompt/system-prompt.txt}), and {@code ROBIN_LLM_BASE_URL},
 * {@code ROBIN_LLM_MODEL}, {@code ROBIN_LLM_API_KEY} for an OpenAI-compatible model; without them Robin uses its
 * deterministic stand-in model.
 */
public final class Robin {
  /** The AI service. */
  public interface Assistant {
    String chat(String message);
  }

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: Robin REQUESTS_FILE");
      System.exit(2);
    }
    String backend = System.getenv("ROBIN_BACKEND_URL");
    if (backend == null || backend.isBlank()) {
      System.err.println("ROBIN_BACKEND_URL is not set");
      System.exit(2);
    }
    ZoneId userZone = ZoneId.of(env("ROBIN_USER_ZONE", "Europe/Paris"));
    String prompt = Files.readString(Path.of(env("ROBIN_PROMPT", "prompt/system-prompt.txt")), StandardCharsets.UTF_8);
    List<String> requests = Files.readAllLines(Path.of(args[0]), StandardCharsets.UTF_8).stream()
        .map(String::strip).filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();

    try (ReceiptInbox inbox = ReceiptInbox.start()) {
      ReminderClient client = new ReminderClient(URI.create(backend), inbox);
      Assistant robin = AiServices.builder(Assistant.class)
          .chatModel(model(userZone))
          .systemMessageProvider(memoryId -> prompt)
          .chatMemory(MessageWindowChatMemory.withMaxMessages(20))
          .tools(new ReminderTools(client, userZone))
          .build();
      for (String request : requests) {
        System.out.println("> " + request);
        System.out.println("Robin: " + robin.chat(request));
      }
      int unconfirmed = inbox.awaitOutstanding(Duration.ofSeconds(60));
      System.out.println("receipts outstanding at shutdown: " + unconfirmed);
    }
  }

  private static ChatModel model(ZoneId userZone) {
    String baseUrl = System.getenv("ROBIN_LLM_BASE_URL");
    String modelName = System.getenv("ROBIN_LLM_MODEL");
    if (baseUrl == null || baseUrl.isBlank() || modelName == null || modelName.isBlank()) {
      return new StandInModel(userZone);
    }
    return OpenAiChatModel.builder()
        .baseUrl(baseUrl)
        .modelName(modelName)
        .apiKey(env("ROBIN_LLM_API_KEY", "none"))
        .timeout(Duration.ofSeconds(60))
        .build();
  }

  private static String env(String name, String fallback) {
    String v = System.getenv(name);
    return v == null || v.isBlank() ? fallback : v;
  }

  private Robin() {}
}
