package dev.vigil.observe.langchain4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.langchain4j.service.V;
import dev.langchain4j.service.memory.ChatMemoryAccess;
import dev.vigil.observe.capture.FrameworkAccess;
import dev.vigil.observe.capture.Role;
import dev.vigil.observe.capture.Site;
import dev.vigil.observe.capture.ValueCapture;
import java.lang.reflect.Method;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class LangChain4jConversationTest {
  /** AI-service methods of every shape LangChain4j accepts. */
  interface Service {
    String chat(@MemoryId int user, @UserMessage String message);

    String only(String message);

    @UserMessage({"Translate to {{lang}}:", "{{text}}"})
    String translate(@V("text") String text, @V("lang") String lang);

    @UserMessage("Summarize: {{it}}")
    String summarize(String text);

    String noMessage(@V("a") String a, @V("b") String b);

    String message(@UserMessage dev.langchain4j.data.message.UserMessage message);

    String order(@UserMessage Order order);

    default String greet() {
      return only("hello");
    }
  }

  record Order(String item, int count) {}

  private static final ValueCapture CAPTURE = new ValueCapture();
  private static final Site SITE = new Site(0, Role.TURN, "X", "invoke", List.of(), null, null);
  private final LangChain4jConversation conversation =
      new LangChain4jConversation(new FrameworkAccess());

  private static Method method(String name) {
    for (Method m : Service.class.getMethods()) {
      if (m.getName().equals(name)) {
        return m;
      }
    }
    throw new AssertionError(name);
  }

  @Test
  void theUserMessageIsTheAnnotatedArgumentOrTheOnlyOne() {
    assertEquals(
        "plan my evening",
        conversation.userText(method("chat"), new Object[] {7, "plan my evening"}, SITE, CAPTURE));
    assertEquals("hi", conversation.userText(method("only"), new Object[] {"hi"}, SITE, CAPTURE));
    assertEquals(
        "hi there",
        conversation.userText(
            method("message"),
            new Object[] {dev.langchain4j.data.message.UserMessage.from("hi there")},
            SITE,
            CAPTURE));
    assertNull(conversation.userText(method("noMessage"), new Object[] {"x", "y"}, SITE, CAPTURE));
  }

  @Test
  void aTemplateIsFilledWithItsVariables() {
    assertEquals(
        "Translate to French:\ngood night",
        conversation.userText(
            method("translate"), new Object[] {"good night", "French"}, SITE, CAPTURE));
    assertEquals(
        "Summarize: a long day",
        conversation.userText(method("summarize"), new Object[] {"a long day"}, SITE, CAPTURE));
  }

  @Test
  void anObjectMessageThatCannotChangeIsKeptAsItIs() {
    // a record of strings and numbers: the writer writes it as JSON (RecordValuesTest)
    Order order = new Order("tea", 2);
    assertSame(order, conversation.userText(method("order"), new Object[] {order}, SITE, CAPTURE));
  }

  @Test
  void theSessionIsTheMemoryIdElseLangChain4jsDefault() {
    assertEquals("7", LangChain4jConversation.memoryId(method("chat"), new Object[] {7, "x"}));
    assertEquals("default", LangChain4jConversation.memoryId(method("only"), new Object[] {"x"}));
    assertEquals(
        "default", LangChain4jConversation.memoryId(method("chat"), new Object[] {null, "x"}));
    UUID id = UUID.randomUUID();
    InvocationContext context =
        InvocationContext.builder().invocationId(id).chatMemoryId(42L).build();
    assertEquals("42", conversation.memoryId(context));
    assertEquals(id.toString(), conversation.invocationId(context));
    assertNull(conversation.memoryId(new Object()));
  }

  @Test
  void onlyChatMethodsAreTurns() throws Exception {
    assertTrue(LangChain4jConversation.isChat(method("chat")));
    assertFalse(LangChain4jConversation.isChat(Object.class.getMethod("toString")));
    assertFalse(
        LangChain4jConversation.isChat(method("greet")),
        "its own calls of the proxy are the turns");
    assertFalse(
        LangChain4jConversation.isChat(
            ChatMemoryAccess.class.getMethod("getChatMemory", Object.class)));
  }
}
