package com.example.shop;

import com.example.scripted.ScriptedModel;
import com.example.scripted.SessionScript;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.service.AiServices;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The shop agent, playing a script of conversations: {@code Shop SCRIPT_FILE}. Each session starts from its own
 * orders (the script's setup) and is answered through a LangChain4j AI service whose model is the
 * {@link ScriptedModel}; the tools run for real. Environment: {@code SHOP_PROMPT} (default
 * {@code prompt/system-prompt.txt}).
 */
public final class Shop {
  private static final ObjectMapper JSON = new ObjectMapper();

  public static void main(String[] args) throws Exception {
    if (args.length != 1) {
      System.err.println("usage: Shop SCRIPT_FILE");
      System.exit(2);
    }
    String promptFile = System.getenv().getOrDefault("SHOP_PROMPT", "prompt/system-prompt.txt");
    String prompt = Files.readString(Path.of(promptFile), StandardCharsets.UTF_8);
    List<SessionScript> scripts = SessionScript.read(Path.of(args[0]));
    OrderStore store = new OrderStore();
    ScriptedModel model = new ScriptedModel();
    ShopAssistant sam = AiServices.builder(ShopAssistant.class)
        .chatModel(model)
        .systemMessageProvider(memoryId -> prompt)
        .chatMemoryProvider(memoryId -> MessageWindowChatMemory.withMaxMessages(60))
        .tools(new ShopTools(store))
        .build();
    for (SessionScript s : scripts) {
      store.reset(orders(s.setup()), s.setup().path("failing_refunds").asInt(0));
      model.play(s);
      System.out.println("== " + s.session());
      for (SessionScript.Turn t : s.turns()) {
        System.out.println("> " + t.user());
        System.out.println("Sam: " + sam.chat(s.session(), t.user()));
      }
    }
    System.out.println("sessions: " + scripts.size() + ", steps off script: " + model.offScript());
    if (model.offScript() > 0) {
      System.exit(1);
    }
  }

  private static List<Order> orders(JsonNode setup) throws Exception {
    List<Order> orders = new ArrayList<>();
    for (JsonNode o : setup.path("orders")) {
      orders.add(JSON.treeToValue(o, Order.class));
    }
    return orders;
  }

  private Shop() {}
}
