package dev.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.it.SmallFilesystem;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventJson;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A queue on a read-only file system (a mounted backup, a volume shared read-only with the
 * analyzer's container): {@code run --queue} reads every event of it and changes nothing there.
 * Runs on a small tmpfs remounted read-only, so only where this process may mount one (root);
 * skipped elsewhere, with the reason.
 */
class ReadOnlyQueueTest {
  @TempDir Path tmp;

  private SmallFilesystem fs;

  @AfterEach
  void unmount() throws Exception {
    if (fs != null) {
      fs.close();
    }
  }

  @Test
  void runReadsEveryEventOfAReadOnlyQueueAndWritesNothingThere() throws Exception {
    fs = SmallFilesystem.mount(tmp.resolve("fs"), "256m");
    Path written = tmp.resolve("written");
    Instant t0 = Instant.parse("2026-11-22T08:00:00Z");
    try (ChronicleQueue q = EventQueues.openForWriting(written);
        ExcerptAppender a = q.createAppender()) {
      for (int i = 0; i < 300; i++) {
        var payload = EventJson.mapper().createObjectNode().put("i", i);
        EventWire.append(
            a,
            Event.of(
                t0.plusSeconds(30L * i), "tool.t" + (i % 4), i % 6 == 0 ? "fail" : "ok", payload));
      }
    }
    // copied, as a backup is: the writer's files stay mapped a while after it closes, and a file
    // system with a file mapped for writing cannot be remounted read-only
    Path queue = Files.createDirectory(fs.dir().resolve("queue"));
    try (Stream<Path> files = Files.list(written)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Files.copy(f, queue.resolve(f.getFileName()));
      }
    }
    fs.readOnly();
    Map<String, Long> before = sizes(queue);

    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Path out = tmp.resolve("out");
    int exit =
        Main.run(
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            "run",
            "--queue",
            queue.toString(),
            "--emobank",
            tmp.resolve("bank").toString(),
            "--out",
            out.toString(),
            "--now",
            "2026-11-22T12:00:00Z");

    assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
    JsonNode report = new ObjectMapper().readTree(out.resolve("report.json").toFile());
    assertEquals(300, report.get("events_deposited").asInt(), report.toString());
    assertTrue(report.get("internal_thorns").isEmpty(), report.toString());
    assertEquals(before, sizes(queue), "nothing in the queue's directory changed");
  }

  private static Map<String, Long> sizes(Path dir) throws Exception {
    Map<String, Long> sizes = new TreeMap<>();
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : (Iterable<Path>) files::iterator) {
        sizes.put(f.getFileName().toString(), Files.size(f));
      }
    }
    return sizes;
  }
}
