package dev.vigil.observe.springai;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.vigil.observe.capture.FrameworkAccess;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;

class SpringAiConversationTest {
  private static final ChatModel MODEL =
      prompt ->
          new ChatResponse(
              List.of(new Generation(AssistantMessage.builder().content("ok").build())));
  private final SpringAiConversation conversation = new SpringAiConversation(new FrameworkAccess());

  @Test
  void readsTheRenderedUserTextAndTheConversationIdFromTheCallSpec() {
    ChatClient.CallResponseSpec spec =
        ChatClient.create(MODEL)
            .prompt()
            .user(
                u ->
                    u.text("book {nights} nights in {city}")
                        .param("nights", 2)
                        .param("city", "Oslo"))
            .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "trip-42"))
            .call();
    Object request = conversation.request(spec);
    assertEquals("book 2 nights in Oslo", conversation.userText(request));
    assertEquals("trip-42", conversation.conversationId(request));
  }

  @Test
  void withoutAConversationIdThereIsNone() {
    Object request = conversation.request(ChatClient.create(MODEL).prompt().user("hello").call());
    assertEquals("hello", conversation.userText(request));
    assertNull(conversation.conversationId(request));
  }

  @Test
  void anUnknownCallSpecGivesNothing() {
    Object request = conversation.request(new Object());
    assertNull(request);
    assertNull(conversation.userText(request));
    assertNull(conversation.conversationId(request));
  }
}
