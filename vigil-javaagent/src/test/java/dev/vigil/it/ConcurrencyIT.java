package dev.vigil.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vigil.observe.Event;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** 16 threads making 20,000 calls each: exactly 320,000 events, seq strictly increasing. */
class ConcurrencyIT {
  @TempDir
  Path tmp;

  @Test
  void everyCallOfEveryThreadIsOneEvent() throws Exception {
    Path queue = tmp.resolve("queue");
    ChildJvm.Run run = ChildJvm.run(ChildJvm.java(),
        "queue.dir=" + queue + ",methods.include=dev.vigil.it.apps.ConcurrencyApp[work]",
        ChildJvm.applicationClassPath(), "dev.vigil.it.apps.ConcurrencyApp", "16", "20000");
    assertEquals(0, run.exit(), run.stderr());
    assertEquals(List.of(), run.vigilLines());

    List<Event> events = ChildJvm.readQueue(queue);
    assertEquals(320_000, events.size());
    Map<String, Integer> perThread = new HashMap<>();
    long previous = 0;
    for (Event e : events) {
      assertEquals("tool.work", e.kind());
      if (e.seq() <= previous) {
        throw new AssertionError("seq not strictly increasing: " + previous + " then " + e.seq());
      }
      previous = e.seq();
      perThread.merge(e.thread(), 1, Integer::sum);
    }
    assertEquals(16, perThread.size());
    perThread.values().forEach(n -> assertEquals(20_000, n));
  }
}
