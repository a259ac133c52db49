package dev.vigil.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.observe.Event;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A LangChain4j AI service with a scripted model, run in a child JVM with the agent: every tool
 * call one event.
 */
class LangChain4jCaptureIT {
  @TempDir Path tmp;

  @Test
  void capturesEveryToolCallOnce() throws Exception {
    checkCapture(ChildJvm.java());
  }

  @Test
  void capturesEveryToolCallOnceOnJava25() throws Exception {
    String java25 = ChildJvm.java25();
    Assumptions.assumeTrue(
        java25 != null,
        "no JDK 25 found (set VIGIL_IT_JDK25 or install one under /usr/lib/jvm); the Java 25 run is skipped");
    ChildJvm.Run run = checkCapture(java25);
    assertFalse(
        run.stderr().contains("restricted method"),
        "no native-access warning from Vigil: " + run.stderr());
  }

  private ChildJvm.Run checkCapture(String java) throws Exception {
    Path queue = tmp.resolve("queue");
    String cp = ChildJvm.applicationClassPath();
    ChildJvm.Run without = ChildJvm.run(java, null, cp, "dev.vigil.it.apps.LangChain4jApp");
    ChildJvm.Run with =
        ChildJvm.run(
            java,
            "queue.dir=" + queue + ",agent.name=robin",
            cp,
            "dev.vigil.it.apps.LangChain4jApp");
    assertEquals(0, without.exit(), without.stderr());
    assertEquals(without.exit(), with.exit(), with.stderr());
    assertEquals(without.stdout(), with.stdout());
    assertTrue(with.vigilLines().isEmpty(), with.stderr());

    List<Event> queued = ChildJvm.readQueue(queue);
    assertEquals(
        3, queued.stream().filter(e -> e.kind().equals("turn.user")).count(), queued::toString);
    assertEquals(
        3, queued.stream().filter(e -> e.kind().equals("turn.answer")).count(), queued::toString);
    List<Event> events = queued.stream().filter(e -> e.kind().startsWith("tool.")).toList();
    assertEquals(14, events.size(), () -> events.toString());
    assertEquals(
        List.of(
            "tool.set_reminder", "tool.book_hotel", "tool.delete_reminder", "tool.check_calendar"),
        events.subList(0, 4).stream().map(Event::kind).toList());
    assertTrue(events.subList(4, 14).stream().allMatch(e -> e.kind().equals("tool.set_reminder")));
    assertEquals(
        List.of("ok", "ok", "fail", "timeout"),
        events.subList(0, 4).stream().map(Event::status).toList());
    assertTrue(events.subList(4, 14).stream().allMatch(e -> e.status().equals("ok")));

    List<String> ids = events.stream().map(Event::callId).toList();
    assertEquals(
        List.of(
            "call_1", "call_2", "call_3", "call_4", "call_10", "call_11", "call_12", "call_13",
            "call_14", "call_15", "call_16", "call_17", "call_18", "call_19"),
        ids);

    Event first = events.get(0);
    assertEquals("in 30 minutes", first.payload().path("args").path("when").asText());
    assertEquals("tea", first.payload().path("args").path("task").asText());
    assertEquals("Reminder set: tea in 30 minutes", first.payload().path("result").asText());
    assertEquals("setReminder", first.payload().path("tool").asText());
    assertEquals("dev.vigil.it.apps.ReminderTools", first.payload().path("class").asText());
    assertEquals("robin", first.agent());
    assertEquals("main", first.thread());
    assertNotNull(first.pid());
    Event hotel = events.get(1);
    assertEquals("book_hotel", hotel.payload().path("tool").asText());
    assertEquals(2, hotel.payload().path("args").path("nights").asInt());

    Event failed = events.get(2);
    assertEquals(
        "java.lang.IllegalStateException", failed.payload().path("error").path("type").asText());
    assertEquals("no reminder r-42", failed.payload().path("error").path("message").asText());
    assertTrue(
        failed
            .payload()
            .path("error")
            .path("frames")
            .get(0)
            .asText()
            .startsWith("dev.vigil.it.apps.ReminderTools.deleteReminder(ReminderTools.java:"));
    Event timedOut = events.get(3);
    assertEquals(
        "java.util.concurrent.TimeoutException",
        timedOut.payload().path("error").path("type").asText());
    assertTrue(timedOut.payload().path("duration_ms").asDouble() >= 60.0, timedOut.toString());
    assertTrue(events.stream().allMatch(e -> e.payload().path("duration_ms").asDouble() >= 0.0));

    Set<String> firstTurn =
        events.subList(0, 2).stream().map(Event::turn).collect(Collectors.toSet());
    Set<String> secondTurn =
        events.subList(2, 4).stream().map(Event::turn).collect(Collectors.toSet());
    Set<String> thirdTurn =
        events.subList(4, 14).stream().map(Event::turn).collect(Collectors.toSet());
    assertEquals(1, firstTurn.size());
    assertEquals(1, secondTurn.size());
    assertEquals(1, thirdTurn.size());
    Set<String> all = new HashSet<>(firstTurn);
    all.addAll(secondTurn);
    all.addAll(thirdTurn);
    assertEquals(3, all.size(), "each user message has its own turn");
    assertNotEquals(null, first.turn());

    for (int i = 1; i < events.size(); i++) {
      assertTrue(events.get(i).seq() > events.get(i - 1).seq());
    }
    return with;
  }
}
