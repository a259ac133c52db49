package dev.vigil.it.apps.boot;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.langchain4j.service.spring.AiService;

/** The AI service that LangChain4j's Spring Boot starter implements and registers as a bean. */
@AiService
public interface Concierge {
  String chat(@MemoryId String guest, @UserMessage String message);
}
