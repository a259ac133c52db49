package dev.vigil.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.observe.Event;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A LangChain4j AI service in a child JVM with the agent: each call is a turn, {@code turn.user}
 * before its tool calls and {@code turn.answer} after them, all with one turn id and the
 * {@code @MemoryId} as session.
 */
class LangChain4jTurnsIT {
  private static final String APP = "dev.vigil.it.apps.LangChain4jTurnsApp";

  @TempDir Path tmp;

  @Test
  void everyAiServiceCallIsATurnFramingItsToolCalls() throws Exception {
    Path queue = tmp.resolve("queue");
    String cp = ChildJvm.applicationClassPath();
    ChildJvm.Run without = ChildJvm.run(ChildJvm.java(), null, cp, APP);
    ChildJvm.Run with =
        ChildJvm.run(ChildJvm.java(), "queue.dir=" + queue + ",capture.max-chars=40", cp, APP);
    assertEquals(0, without.exit(), without.stderr());
    assertEquals(0, with.exit(), with.stderr());
    assertEquals(without.stdout(), with.stdout());
    assertTrue(with.vigilLines().isEmpty(), with.stderr());

    List<Turn> turns = Turn.split(ChildJvm.readQueue(queue));
    assertEquals(6, turns.size(), turns::toString);
    assertEquals(
        6, turns.stream().map(Turn::id).distinct().count(), "each user message has its own turn");

    Turn plan = turns.get(0);
    assertEquals("alice", plan.session());
    assertEquals(
        "plan my evening", plan.user().payload().path("text").asText(), "as passed, not augmented");
    assertEquals(List.of("tool.set_reminder", "tool.book_hotel"), plan.toolKinds());
    assertEquals(
        "Your evening is planned; we open at 9.",
        plan.answer().payload().path("text").asText(),
        "the model saw the augmented message");
    assertEquals(2, plan.answer().payload().path("tool_calls").asInt());
    assertEquals("ok", plan.answer().status());
    assertFalse(plan.user().ts().isAfter(plan.tools().get(0).ts()));
    assertFalse(plan.answer().ts().isBefore(plan.tools().get(1).ts()));

    Turn remind = turns.get(1);
    assertEquals("bob", remind.session());
    assertEquals(
        "remind me to rotate my key ***",
        remind.user().payload().path("text").asText(),
        "redacted before it is cut");
    assertEquals(1, remind.answer().payload().path("tool_calls").asInt());

    Turn thanks = turns.get(2);
    assertEquals("alice", thanks.session());
    assertEquals(List.of(), thanks.tools());
    assertEquals(
        "You are welcome, enjoy the evening and s…(+18 chars)",
        thanks.answer().payload().path("text").asText());
    assertEquals(0, thanks.answer().payload().path("tool_calls").asInt());

    Turn explode = turns.get(3);
    assertEquals("bob", explode.session());
    assertEquals("explode", explode.user().payload().path("text").asText());
    assertEquals("fail", explode.answer().status());
    assertTrue(explode.answer().payload().path("text").isNull());
    assertEquals(
        "java.lang.IllegalStateException",
        explode.answer().payload().path("error").path("type").asText());
    assertEquals(
        "model unavailable", explode.answer().payload().path("error").path("message").asText());

    Turn translate = turns.get(4);
    assertEquals("default", translate.session(), "no @MemoryId: LangChain4j's default memory");
    assertEquals(
        "Translate to French: good night", translate.user().payload().path("text").asText());
    assertEquals("bonne nuit", translate.answer().payload().path("text").asText());

    Turn concurrent = turns.get(5);
    assertEquals("carol", concurrent.session());
    assertEquals(
        Set.of("tool.set_reminder", "tool.book_hotel"), Set.copyOf(concurrent.toolKinds()));
    assertTrue(
        concurrent.tools().stream().noneMatch(e -> e.thread().equals("main")),
        "LangChain4j ran these tools on its own threads: " + concurrent.tools());
    assertEquals(2, concurrent.answer().payload().path("tool_calls").asInt());
    assertEquals("Your evening is planned.", concurrent.answer().payload().path("text").asText());
    assertEquals("main", concurrent.answer().thread());
  }

  @Test
  void withoutTurnsOnlyToolCallsAreRecordedStillWithTurnAndSession() throws Exception {
    Path queue = tmp.resolve("queue");
    ChildJvm.Run run =
        ChildJvm.run(
            ChildJvm.java(),
            "queue.dir=" + queue + ",capture.turns=false",
            ChildJvm.applicationClassPath(),
            APP);
    assertEquals(0, run.exit(), run.stderr());
    List<Event> events = ChildJvm.readQueue(queue);
    assertEquals(5, events.size(), events::toString);
    assertTrue(events.stream().allMatch(e -> e.kind().startsWith("tool.")), events::toString);
    assertEquals(
        List.of("alice", "alice", "bob", "carol", "carol"),
        events.stream().map(Event::session).toList());
    assertTrue(events.stream().allMatch(e -> e.turn() != null));
    assertEquals(3, events.stream().map(Event::turn).distinct().count());
  }

  /** The events of one turn, in queue order: its user message, its tool calls, its answer. */
  record Turn(String id, String session, Event user, List<Event> tools, Event answer) {
    List<String> toolKinds() {
      return tools.stream().map(Event::kind).toList();
    }

    /**
     * The queue cut into turns: each begins with {@code turn.user} and ends with {@code
     * turn.answer}, every event in between carries the same turn id and session, and seq rises
     * throughout.
     */
    static List<Turn> split(List<Event> events) {
      for (int i = 1; i < events.size(); i++) {
        assertTrue(events.get(i).seq() > events.get(i - 1).seq());
      }
      List<String> ids = events.stream().map(Event::turn).distinct().toList();
      return ids.stream()
          .map(
              id -> {
                assertNotNull(id, () -> "every event belongs to a turn: " + events);
                List<Event> in = events.stream().filter(e -> id.equals(e.turn())).toList();
                Event first = in.get(0);
                Event last = in.get(in.size() - 1);
                assertEquals("turn.user", first.kind(), in::toString);
                assertEquals("turn.answer", last.kind(), in::toString);
                assertTrue(
                    in.stream().allMatch(e -> Objects.equals(first.session(), e.session())),
                    in::toString);
                List<Event> tools = in.subList(1, in.size() - 1);
                tools.forEach(t -> assertTrue(t.kind().startsWith("tool."), in::toString));
                return new Turn(id, first.session(), first, tools, last);
              })
          .toList();
    }
  }
}
