package dev.vigil.bench.support;

import dev.langchain4j.memory.chat.ChatMemoryProvider;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

/**
 * A Spring Boot web application as a LangChain4j user writes one: the starter builds the {@link
 * SupportAgent} AI service from the OpenAI chat model it configures (application.properties; the
 * benchmark points its base URL at a loopback server) and wires the {@link BookingDesk} tools into
 * it. It knows nothing of Vigil.
 */
@SpringBootApplication
public class SupportAgentApplication {
  /** Each conversation keeps its last messages. */
  @Bean
  ChatMemoryProvider chatMemoryProvider() {
    return id -> MessageWindowChatMemory.builder().id(id).maxMessages(20).build();
  }

  public static void main(String[] args) {
    SpringApplication.run(SupportAgentApplication.class, args);
  }
}
