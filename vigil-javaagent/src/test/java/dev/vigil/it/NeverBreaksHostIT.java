package dev.vigil.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.observe.Event;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whatever fails inside Vigil, the application behaves exactly as without the agent: same output,
 * same exit code, and one line on stderr explaining what Vigil could not do.
 */
class NeverBreaksHostIT {
  private static final String APP = "dev.vigil.it.apps.HostSafetyApp";
  private static final String INCLUDE =
      "methods.include=dev.vigil.it.apps.HostSafetyApp$Service[*]";

  @TempDir Path tmp;

  private ChildJvm.Run sameAsWithout(Path queueDir, String mode) throws Exception {
    String cp = ChildJvm.applicationClassPath();
    ChildJvm.Run without = ChildJvm.run(ChildJvm.java(), null, cp, APP, mode);
    ChildJvm.Run with =
        ChildJvm.run(ChildJvm.java(), "queue.dir=" + queueDir + "," + INCLUDE, cp, APP, mode);
    assertEquals(without.exit(), with.exit(), with.stderr());
    assertEquals(without.stdout(), with.stdout());
    assertEquals("", without.stderr());
    assertEquals(1, with.stderrLines().size(), with.stderr());
    assertEquals(1, with.vigilLines().size(), with.stderr());
    return with;
  }

  @Test
  void queuePathIsARegularFile() throws Exception {
    Path file = Files.writeString(tmp.resolve("not-a-dir"), "x");
    ChildJvm.Run run = sameAsWithout(file, "plain");
    assertEquals(3, run.exit());
    assertTrue(run.stderr().contains("not-a-dir"), run.stderr());
    assertEquals("x", Files.readString(file), "the file is left as it was");
  }

  @Test
  void queuePathUnderProc() throws Exception {
    ChildJvm.Run run = sameAsWithout(Path.of("/proc/vigil-it/queue"), "plain");
    assertTrue(run.stderr().contains("/proc/vigil-it/queue"), run.stderr());
  }

  @Test
  void argumentWhoseToStringThrows() throws Exception {
    Path queue = tmp.resolve("queue");
    ChildJvm.Run run = sameAsWithout(queue, "evil");
    assertTrue(run.stderr().contains("argument 'value'"), run.stderr());
    List<Event> events = ChildJvm.readQueue(queue);
    assertEquals(1, events.size());
    assertTrue(
        events.get(0).payload().path("args").path("value").asText().startsWith("<unreadable "));
    assertEquals("took Evil", events.get(0).payload().path("result").asText());
  }

  @Test
  void selfReferencingObjectGraph() throws Exception {
    Path queue = tmp.resolve("queue");
    sameAsWithout(queue, "cycle");
    List<Event> events = ChildJvm.readQueue(queue);
    assertEquals(1, events.size());
    assertEquals("ok", events.get(0).status());
  }

  @Test
  void tenMegabyteArgument() throws Exception {
    Path queue = tmp.resolve("queue");
    ChildJvm.Run run = sameAsWithout(queue, "big");
    assertTrue(run.stderr().contains("vigil.capture.max-chars"), run.stderr());
    List<Event> events = ChildJvm.readQueue(queue);
    String text = events.get(0).payload().path("args").path("text").asText();
    assertEquals(4096 + "…(+10481664 chars)".length(), text.length());
    assertTrue(text.endsWith("…(+10481664 chars)"));
    assertEquals(10 * 1024 * 1024, events.get(0).payload().path("result").asInt());
  }
}
