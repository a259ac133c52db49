package dev.vigil.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.observe.Event;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A framework-free application instrumented through vigil.methods.include and renamed through
 * vigil.kinds.
 */
class MethodsIncludeIT {
  @TempDir Path tmp;

  @Test
  void includedMethodsOfSubtypesAndRenamedKinds() throws Exception {
    Path queue = tmp.resolve("queue");
    String cp = ChildJvm.applicationClassPath();
    ChildJvm.Run run =
        ChildJvm.run(
            ChildJvm.java(),
            null,
            List.of(
                "-Dvigil.queue.dir=" + queue,
                "-Dvigil.methods.include=dev.vigil.it.apps.PlainApp$Backend[send,confirm];dev.vigil.it.apps.PlainApp$Clock[*]",
                "-Dvigil.kinds=dev.vigil.it.apps.PlainApp$Backend#confirm=reminder.receipt",
                "-javaagent:" + ChildJvm.agentJar().toAbsolutePath()),
            cp,
            "dev.vigil.it.apps.PlainApp");
    assertEquals(0, run.exit(), run.stderr());
    assertEquals("r-11 true\n12:00 UTC 12\n", run.stdout());

    List<Event> events = ChildJvm.readQueue(queue);
    assertEquals(
        List.of("tool.send", "reminder.receipt", "tool.now", "tool.hour"),
        events.stream().map(Event::kind).toList());
    assertEquals(
        "dev.vigil.it.apps.PlainApp$HttpBackend", events.get(0).payload().path("class").asText());
    assertEquals("tea at five", events.get(0).payload().path("args").path("message").asText());
    assertEquals("r-11", events.get(0).payload().path("result").asText());
    assertTrue(events.get(1).payload().path("result").asBoolean());
    assertEquals(
        "PlainApp", events.get(0).agent(), "default agent name: the main class's simple name");
    assertTrue(events.stream().allMatch(e -> e.turn() == null && e.callId() == null));
  }

  @Test
  void aRecordWithDatesInsideIsRecordedAsItsFieldsWithIsoDates() throws Exception {
    Path queue = tmp.resolve("queue");
    ChildJvm.Run run =
        ChildJvm.run(
            ChildJvm.java(),
            "queue.dir=" + queue + ",methods.include=dev.vigil.it.apps.BookingApp$Bookings[find]",
            ChildJvm.applicationClassPath(),
            "dev.vigil.it.apps.BookingApp");
    assertEquals(0, run.exit(), run.stderr());
    assertEquals("CONFIRMED\n", run.stdout());
    assertEquals(List.of(), run.vigilLines(), "no line: the result is readable as JSON");

    List<Event> events = ChildJvm.readQueue(queue);
    assertEquals(1, events.size());
    // the price is exact; Jackson's tree reader drops the trailing zero of 420.50
    assertEquals(
        "{\"id\":\""
            + UUID.nameUUIDFromBytes("B-1".getBytes(StandardCharsets.UTF_8))
            + "\",\"from\":\"2025-03-01\",\"to\":\"2025-03-04\",\"status\":\"CONFIRMED\",\"price\":420.5,"
            + "\"checkIn\":\"PT15H\",\"guests\":[{\"name\":\"Ada\",\"email\":\"ada@example.org\"},"
            + "{\"name\":\"Bob\",\"email\":null}],\"changes\":{\"moved\":\"2025-02-20\"}}",
        events.get(0).payload().get("result").toString());
  }

  @Test
  void malformedValueNamesTheKeyAndTheDefaultIsUsed() throws Exception {
    Path queue = tmp.resolve("queue");
    Path config = tmp.resolve("vigil.properties");
    Files.writeString(
        config,
        "vigil.queue.dir="
            + queue
            + "\n"
            + "vigil.methods.include=dev.vigil.it.apps.PlainApp$Clock[now]\n");
    ChildJvm.Run run =
        ChildJvm.run(
            ChildJvm.java(),
            "capture.max-chars=lots,config.file=" + config,
            ChildJvm.applicationClassPath(),
            "dev.vigil.it.apps.PlainApp");
    assertEquals(0, run.exit());
    assertEquals(
        List.of(
            "[vigil] vigil.capture.max-chars: \"lots\" is not a whole number of at least 1; using the "
                + "default \"4096\""),
        run.vigilLines());
    assertEquals(List.of("tool.now"), ChildJvm.readQueue(queue).stream().map(Event::kind).toList());
  }
}
