package dev.vigil.bench.support;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.SystemMessage;
import dev.langchain4j.service.UserMessage;
import dev.langchain4j.service.spring.AiService;

/** The assistant, built by LangChain4j's starter with every bean's {@code @Tool} methods. */
@AiService
public interface SupportAgent {
  /** Answers one message of a customer's conversation. */
  @SystemMessage(
      """
      You answer the customers of Wheels & Deals, a car rental, about their bookings. Be brief and friendly.
      Before you look up a booking, make sure you know its number and the customer's surname.
      Talk only about the customer's bookings; politely decline anything else.
      """)
  String answer(@MemoryId String conversation, @UserMessage String message);
}
