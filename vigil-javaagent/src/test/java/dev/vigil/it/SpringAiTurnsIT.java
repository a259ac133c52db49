package dev.vigil.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Spring AI {@code ChatClient} in a child JVM with the agent: each {@code call()} is a turn, its
 * session the conversation id of the chat-memory advisor's parameter, its user text the message
 * before any advisor ran.
 */
class SpringAiTurnsIT {
  private static final String APP = "dev.vigil.it.apps.SpringAiChatClientApp";

  @TempDir Path tmp;

  @Test
  void everyChatClientCallIsATurnFramingItsToolCalls() throws Exception {
    Path queue = tmp.resolve("queue");
    String cp = ChildJvm.applicationClassPath();
    ChildJvm.Run without = ChildJvm.run(ChildJvm.java(), null, cp, APP);
    ChildJvm.Run with = ChildJvm.run(ChildJvm.java(), "queue.dir=" + queue, cp, APP);
    assertEquals(0, without.exit(), without.stderr());
    assertEquals(0, with.exit(), with.stderr());
    assertEquals(without.stdout(), with.stdout());
    assertTrue(with.vigilLines().isEmpty(), with.stderr());

    List<LangChain4jTurnsIT.Turn> turns = LangChain4jTurnsIT.Turn.split(ChildJvm.readQueue(queue));
    assertEquals(4, turns.size(), turns::toString);

    LangChain4jTurnsIT.Turn weather = turns.get(0);
    assertEquals("trip-42", weather.session());
    assertEquals(
        "weather in Oslo and Bergen?",
        weather.user().payload().path("text").asText(),
        "the message as the application passed it, before the advisors");
    assertEquals(List.of("tool.current_weather", "tool.current_weather"), weather.toolKinds());
    assertEquals(List.of("sai_1", "sai_2"), weather.tools().stream().map(e -> e.callId()).toList());
    assertEquals(
        "Sunny in Oslo and in Bergen; hotels open.",
        weather.answer().payload().path("text").asText(),
        "the model saw the augmented message");
    assertEquals(2, weather.answer().payload().path("tool_calls").asInt());

    LangChain4jTurnsIT.Turn book = turns.get(1);
    assertEquals("trip-42", book.session());
    assertEquals(
        "book 2 nights in Oslo",
        book.user().payload().path("text").asText(),
        "the template rendered");
    assertEquals(List.of("tool.book_hotel"), book.toolKinds());
    assertEquals(
        "Booked.", book.answer().payload().path("text").asText(), "read from the ChatResponse");

    LangChain4jTurnsIT.Turn hello = turns.get(2);
    assertNull(hello.session(), "no conversation id, no conversation");
    assertEquals(0, hello.answer().payload().path("tool_calls").asInt());
    assertEquals("Hello!", hello.answer().payload().path("text").asText());

    LangChain4jTurnsIT.Turn explode = turns.get(3);
    assertEquals("trip-7", explode.session());
    assertEquals("fail", explode.answer().status());
    assertEquals(
        "java.lang.IllegalStateException",
        explode.answer().payload().path("error").path("type").asText());
  }
}
