package dev.vigil.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Spring Boot application whose AI service is LangChain4j's {@code @AiService} (the starter
 * builds it), in a child JVM with the agent: its calls are turns like any AI service's, with the
 * {@code @MemoryId} as session.
 */
class SpringBootAiServiceIT {
  private static final String APP = "dev.vigil.it.apps.boot.ConciergeApp";

  @TempDir Path tmp;

  @Test
  void anAiServiceBeanAnswersInTurns() throws Exception {
    Path queue = tmp.resolve("queue");
    String cp = ChildJvm.applicationClassPath();
    ChildJvm.Run without = ChildJvm.run(ChildJvm.java(), null, cp, APP);
    ChildJvm.Run with = ChildJvm.run(ChildJvm.java(), "queue.dir=" + queue, cp, APP);
    assertEquals(0, without.exit(), without.stderr());
    assertEquals(0, with.exit(), with.stderr());
    assertEquals(
        "dora <- Your evening is planned.\neve <- Reminder set.\n",
        without.stdout().replace("\r\n", "\n"));
    assertEquals(without.stdout(), with.stdout());
    assertTrue(with.vigilLines().isEmpty(), with.stderr());

    List<LangChain4jTurnsIT.Turn> turns = LangChain4jTurnsIT.Turn.split(ChildJvm.readQueue(queue));
    assertEquals(2, turns.size(), turns::toString);
    LangChain4jTurnsIT.Turn dora = turns.get(0);
    assertEquals("dora", dora.session());
    assertEquals("plan my evening", dora.user().payload().path("text").asText());
    assertEquals(List.of("tool.set_reminder", "tool.book_hotel"), dora.toolKinds());
    assertEquals(
        "dev.vigil.it.apps.boot.ConciergeTools",
        dora.tools().get(0).payload().path("class").asText());
    assertEquals("Your evening is planned.", dora.answer().payload().path("text").asText());
    assertEquals(2, dora.answer().payload().path("tool_calls").asInt());
    LangChain4jTurnsIT.Turn eve = turns.get(1);
    assertEquals("eve", eve.session());
    assertEquals("remind me to call the florist", eve.user().payload().path("text").asText());
    assertEquals(List.of("tool.set_reminder"), eve.toolKinds());
    assertEquals(1, eve.answer().payload().path("tool_calls").asInt());
  }
}
