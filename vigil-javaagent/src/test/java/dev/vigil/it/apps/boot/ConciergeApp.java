package dev.vigil.it.apps.boot;

import dev.langchain4j.memory.chat.ChatMemoryProvider;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.chat.ChatModel;
import dev.vigil.it.apps.ScriptedTurnsModel;
import java.util.Map;
import org.springframework.boot.Banner;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * A Spring Boot application written as LangChain4j's starter expects: an {@code @AiService}
 * interface, a {@code @Component} with {@code @Tool} methods, and the model and chat memory as
 * beans (the model scripted, no network). Two guests talk to the concierge.
 */
@SpringBootApplication
public class ConciergeApp {
  @Bean
  ChatModel chatModel() {
    return new ScriptedTurnsModel();
  }

  @Bean
  ChatMemoryProvider chatMemoryProvider() {
    return id -> MessageWindowChatMemory.withMaxMessages(50);
  }

  public static void main(String[] args) {
    SpringApplication app = new SpringApplication(ConciergeApp.class);
    app.setBannerMode(Banner.Mode.OFF);
    app.setLogStartupInfo(false);
    app.setDefaultProperties(Map.of("logging.level.root", "warn"));
    try (ConfigurableApplicationContext context = app.run(args)) {
      Concierge concierge = context.getBean(Concierge.class);
      System.out.println("dora <- " + concierge.chat("dora", "plan my evening"));
      System.out.println("eve <- " + concierge.chat("eve", "remind me to call the florist"));
    }
  }
}
