package dev.vigil.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.observe.Event;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.SpillFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process that ends within half a second of its first tool call never opens the queue: its events
 * go to a spill file at exit, and the next process that opens the queue imports them, once, each
 * process's {@code seq} as it was written (docs/DESIGN.md#spill-files).
 */
class SpillIT {
  private static final String INCLUDE =
      "-Dvigil.methods.include=dev.vigil.it.apps.PlainApp$Backend[send,confirm];"
          + "dev.vigil.it.apps.PlainApp$Clock[*]";

  @TempDir Path tmp;

  private ChildJvm.Run plainApp(Path queue, long openDelayMs, String... args) throws Exception {
    ChildJvm.Run run =
        ChildJvm.run(
            ChildJvm.java(),
            "queue.dir=" + queue + ",queue.open-delay-ms=" + openDelayMs,
            List.of(INCLUDE),
            ChildJvm.applicationClassPath(),
            "dev.vigil.it.apps.PlainApp",
            args);
    assertEquals(0, run.exit(), run.stderr());
    assertEquals("r-11 true\n12:00 UTC 12\n", run.stdout());
    return run;
  }

  @Test
  void shortProcessesSpillAndTheNextProcessThatOpensTheQueueImportsTheirEventsOnce()
      throws Exception {
    Path queue = tmp.resolve("queue");
    plainApp(queue, 600_000);
    plainApp(queue, 600_000);
    assertTrue(SpillFiles.pending(queue), "both spilled");
    assertFalse(Files.exists(queue.resolve(EventQueues.METADATA_FILE)), "neither opened the queue");

    plainApp(queue, 0, "linger", queue.resolve(SpillFiles.DIR).toString());
    assertFalse(SpillFiles.pending(queue), "imported by the process that opened the queue");

    Map<Long, List<Long>> seqs = new LinkedHashMap<>();
    List<Event> events = ChildJvm.readQueue(queue);
    for (Event e : events) {
      seqs.computeIfAbsent(e.pid(), p -> new ArrayList<>()).add(e.seq());
    }
    assertEquals(12, events.size(), "four calls of three processes, once each");
    assertEquals(
        List.of("tool.send", "tool.confirm", "tool.now", "tool.hour"),
        events.subList(0, 4).stream().map(Event::kind).toList());
    assertEquals(3, seqs.size());
    for (List<Long> s : seqs.values()) {
      assertEquals(List.of(1L, 2L, 3L, 4L), s, "each process's own seq, in order");
    }
  }
}
