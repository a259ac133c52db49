package dev.vigil.observe.springai;

import dev.vigil.observe.capture.FrameworkAccess;
import java.util.Map;

/**
 * Reads a turn of a Spring AI {@code ChatClient} call from its call spec ({@code
 * ChatClient.CallResponseSpec}), which holds the request the application built ({@code
 * ChatClientRequest}: the prompt and the advisors' context) before any advisor ran, so before
 * retrieval augmentation and before the chat memory adds the history. The user text is the prompt's
 * last user message; the conversation is the advisors' parameter {@code
 * ChatMemory.CONVERSATION_ID}, else none (Spring AI 2 has no default conversation: its chat-memory
 * advisors refuse a call without one). Read by reflection (the call spec keeps its request in a
 * private field); nothing here throws.
 */
final class SpringAiConversation {
  /** The advisor parameter that names the conversation ({@code ChatMemory.CONVERSATION_ID}). */
  static final String CONVERSATION_ID = "chat_memory_conversation_id";

  private final FrameworkAccess access;

  SpringAiConversation(FrameworkAccess access) {
    this.access = access;
  }

  /** The request a call spec will send, or null when it keeps none Vigil can read. */
  Object request(Object callSpec) {
    return access.field(callSpec, "request");
  }

  /** The text of the request's last user message, or null. */
  String userText(Object request) {
    Object userMessage = access.call(access.call(request, "prompt"), "getUserMessage");
    return access.text(userMessage, "getText");
  }

  /** The conversation the request belongs to, or null. */
  String conversationId(Object request) {
    Object context = access.call(request, "context");
    Object id = context instanceof Map<?, ?> m ? m.get(CONVERSATION_ID) : null;
    return id == null ? null : FrameworkAccess.textOf(id);
  }
}
