package com.example.shop;

import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;

/** The shop's AI service: one memory per conversation. */
public interface ShopAssistant {
  /** Answers one customer message of the conversation {@code session}. */
  String chat(@MemoryId String session, @UserMessage String message);
}
