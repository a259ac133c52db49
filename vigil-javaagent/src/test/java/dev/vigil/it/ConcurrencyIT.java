package dev.vigil.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.vigil.observe.Event;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.ExcerptEvents;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * 16 threads making 20,000 calls each: exactly 320,000 events, seq strictly increasing. The calls
 * come in five rounds of 64,000, fewer than the writer's hand-off holds (65,536), and a round
 * starts only when the queue holds every event of the rounds before: so no calling thread ever
 * waits for room, and nothing is lost however slowly the writer runs on a busy machine, and the
 * application ends only when everything is written.
 */
class ConcurrencyIT {
  private static final int THREADS = 16;
  private static final int CALLS_PER_ROUND = 4_000;
  private static final int ROUNDS = 5;

  @TempDir Path tmp;

  @Test
  void everyCallOfEveryThreadIsOneEvent() throws Exception {
    Path queue = tmp.resolve("queue");
    Path stderr = tmp.resolve("app.err");
    Process app =
        new ProcessBuilder(
                ChildJvm.java(),
                "-Xshare:auto",
                "-javaagent:"
                    + ChildJvm.agentJar().toAbsolutePath()
                    + "=queue.dir="
                    + queue
                    + ",methods.include=dev.vigil.it.apps.ConcurrencyApp[work]",
                "-cp",
                ChildJvm.applicationClassPath(),
                "dev.vigil.it.apps.ConcurrencyApp",
                String.valueOf(THREADS),
                String.valueOf(CALLS_PER_ROUND),
                String.valueOf(ROUNDS))
            .redirectError(stderr.toFile())
            .start();
    try (OutputStream toApp = app.getOutputStream();
        BufferedReader fromApp =
            new BufferedReader(
                new InputStreamReader(app.getInputStream(), StandardCharsets.UTF_8));
        QueueCount written = new QueueCount(queue)) {
      for (int round = 1; round <= ROUNDS; round++) {
        assertEquals(
            "round " + round, fromApp.readLine(), "the application's calls of round " + round);
        long expected = (long) round * THREADS * CALLS_PER_ROUND;
        await().atMost(Duration.ofMinutes(5)).until(() -> written.count() >= expected);
        toApp.write("next\n".getBytes(StandardCharsets.UTF_8));
        toApp.flush();
      }
      fromApp.readLine(); // the sum
    } finally {
      if (!app.waitFor(2, TimeUnit.MINUTES)) {
        app.destroyForcibly();
      }
    }
    assertEquals(0, app.exitValue(), Files.readString(stderr));
    ChildJvm.Run run = new ChildJvm.Run(app.exitValue(), "", Files.readString(stderr));
    assertEquals(List.of(), run.vigilLines());

    List<Event> events = ChildJvm.readQueue(queue);
    assertEquals(THREADS * CALLS_PER_ROUND * ROUNDS, events.size());
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
    assertEquals(THREADS, perThread.size());
    perThread.values().forEach(n -> assertEquals(CALLS_PER_ROUND * ROUNDS, n));
  }

  /**
   * Counts the events of a queue another process writes, as they come; the queue is opened once it
   * exists.
   */
  private static final class QueueCount implements AutoCloseable {
    private final Path dir;
    private ChronicleQueue queue;
    private ExcerptTailer tailer;
    private long count;
    private final ExcerptEvents events = new ExcerptEvents();

    QueueCount(Path dir) {
      this.dir = dir;
    }

    long count() {
      if (tailer == null) {
        if (!Files.exists(dir.resolve(EventQueues.METADATA_FILE)) || !hasCycleFile()) {
          return 0;
        }
        queue = EventQueues.openForReading(dir);
        tailer = queue.createTailer();
      }
      while (true) {
        try (DocumentContext dc = tailer.readingDocument()) {
          if (!dc.isPresent()) {
            return count;
          }
          for (events.start(dc.wire().bytes()); events.next(); ) {
            count++;
          }
        } catch (EventFormatException e) {
          throw new IllegalStateException(e);
        }
      }
    }

    private boolean hasCycleFile() {
      try (Stream<Path> files = Files.list(dir)) {
        return files.anyMatch(f -> f.getFileName().toString().endsWith(".cq4"));
      } catch (IOException e) {
        return false;
      }
    }

    @Override
    public void close() {
      if (queue != null) {
        queue.close();
      }
    }
  }
}
