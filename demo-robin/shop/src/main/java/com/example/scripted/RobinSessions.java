package com.example.scripted;

import com.example.robin.ReceiptInbox;
import com.example.robin.ReminderClient;
import com.example.robin.ReminderTools;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneId;
import java.util.List;

/**
 * Robin's conversations for the corpus: {@code RobinSessions SCRIPT_FILE}. Robin's own tools as shipped
 * ({@link ReminderTools} on the reminder backend at {@code ROBIN_BACKEND_URL}, receipts into a {@link ReceiptInbox}),
 * behind an AI service with one memory per session and the {@link ScriptedModel} as its model. Environment as
 * Robin's: {@code ROBIN_BACKEND_URL} (required), {@code ROBIN_USER_ZONE} (default UTC here), {@code ROBIN_PROMPT}.
 */
public final class RobinSessions {
  /** Robin's AI service, with a memory per conversation. */
  public interface Assistant {
    String chat(@MemoryId String session, @UserMessage String message);
  }

  public static void main(String[] args) throws Exception {
    String backend = System.getenv("ROBIN_BACKEND_URL");
    if (args.length != 1 || backend == null || backend.isBlank()) {
      System.err.println("usage: RobinSessions SCRIPT_FILE, with ROBIN_BACKEND_URL set");
      System.exit(2);
    }
    ZoneId zone = ZoneId.of(System.getenv().getOrDefault("ROBIN_USER_ZONE", "UTC"));
    String prompt = Files.readString(Path.of(System.getenv().getOrDefault("ROBIN_PROMPT",
        "prompt/system-prompt.txt")), StandardCharsets.UTF_8);
    List<SessionScript> scripts = SessionScript.read(Path.of(args[0]));
    ScriptedModel model = new ScriptedModel();
    try (ReceiptInbox inbox = ReceiptInbox.start()) {
      Assistant robin = AiServices.builder(Assistant.class)
          .chatModel(model)
          .systemMessageProvider(memoryId -> prompt)
          .chatMemoryProvider(memoryId -> MessageWindowChatMemory.withMaxMessages(40))
          .tools(new ReminderTools(new ReminderClient(URI.create(backend), inbox), zone))
          .build();
      for (SessionScript s : scripts) {
        model.play(s);
        System.out.println("== " + s.session());
        for (SessionScript.Turn t : s.turns()) {
          System.out.println("> " + t.user());
          System.out.println("Robin: " + robin.chat(s.session(), t.user()));
        }
      }
      System.out.println("receipts outstanding at the end: " + inbox.awaitOutstanding(Duration.ofSeconds(5)));
    }
    System.out.println("sessions: " + scripts.size() + ", steps off script: " + model.offScript());
    if (model.offScript() > 0) {
      System.exit(1);
    }
  }

  private RobinSessions() {}
}
