package dev.vigil.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.observe.Event;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A framework-free application instrumented through vigil.methods.include and renamed through vigil.kinds. */
class MethodsIncludeIT {
  @TempDir
  Path tmp;

  @Test
  void includedMethodsOfSubtypesAndRenamedKinds() throws Exception {
    Path queue = tmp.resolve("queue");
    String cp = ChildJvm.applicationClassPath();
    ChildJvm.Run run = ChildJvm.run(ChildJvm.java(), null,
        List.of("-Dvigil.queue.dir=" + queue,
            "-Dvigil.methods.include=dev.vigil.it.apps.PlainApp$Backend[send,confirm];dev.vigil.it.apps.PlainApp$Clock[*]",
            "-Dvigil.kinds=dev.vigil.it.apps.PlainApp$Backend#confirm=reminder.receipt",
            "-javaagent:" + ChildJvm.agentJar().toAbsolutePath()),
        cp, "dev.vigil.it.apps.PlainApp");
    assertEquals(0, run.exit(), run.stderr());
    assertEquals("r-11 true\n12:00 UTC 12\n", run.stdout());

    List<Event> events = ChildJvm.readQueue(queue);
    assertEquals(List.of("tool.send", "reminder.receipt", "tool.now", "tool.hour"),
        events.stream().map(Event::kind).toList());
    assertEquals("dev.vigil.it.apps.PlainApp$HttpBackend", events.get(0).payload().path("class").asText());
    assertEquals("tea at five", events.get(0).payload().path("args").path("message").asText());
    assertEquals("r-11", events.get(0).payload().path("result").asText());
    assertTrue(events.get(1).payload().path("result").asBoolean());
    assertEquals("PlainApp", events.get(0).agent(), "default agent name: the main class's simple name");
    assertTrue(events.stream().allMatch(e -> e.turn() == null && e.callId() == null));
  }

  @Test
  void malformedValueNamesTheKeyAndTheDefaultIsUsed() throws Exception {
    Path queue = tmp.resolve("queue");
    Path config = tmp.resolve("vigil.properties");
    Files.writeString(config, "vigil.queue.dir=" + queue + "\n"
        + "vigil.methods.include=dev.vigil.it.apps.PlainApp$Clock[now]\n");
    ChildJvm.Run run = ChildJvm.run(ChildJvm.java(), "capture.max-chars=lots,config.file=" + config,
        ChildJvm.applicationClassPath(), "dev.vigil.it.apps.PlainApp");
    assertEquals(0, run.exit());
    assertEquals(List.of("[vigil] vigil.capture.max-chars: \"lots\" is not a whole number of at least 1; using the "
        + "default \"4096\""), run.vigilLines());
    assertEquals(List.of("tool.now"), ChildJvm.readQueue(queue).stream().map(Event::kind).toList());
  }
}
