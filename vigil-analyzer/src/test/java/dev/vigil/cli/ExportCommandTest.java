package dev.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.observe.Event;
import dev.vigil.observe.EventJson;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import dev.vigil.observe.RandomEvents;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.wire.DocumentContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ExportCommandTest {
  @TempDir Path tmp;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return Main.run(
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        args);
  }

  private String stdout() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String stderr() {
    return err.toString(StandardCharsets.UTF_8);
  }

  private Path queueWith(List<Event> events) {
    Path dir = tmp.resolve("queue");
    try (ChronicleQueue q = EventQueues.openForWriting(dir)) {
      ExcerptAppender appender = q.createAppender();
      events.forEach(e -> EventWire.append(appender, e));
    }
    return dir;
  }

  @Test
  void exportsTenThousandRandomEventsExactlyAsTheJsonCodecWritesThem() throws Exception {
    RandomEvents random = new RandomEvents(20261122L, 1_000);
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < 10_000; i++) {
      events.add(random.next());
    }
    Path queue = queueWith(events);
    Path file = tmp.resolve("events.jsonl");

    assertEquals(0, run("export", "--queue", queue.toString(), "--out", file.toString()), stderr());

    List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    assertEquals(events.size(), lines.size());
    for (int i = 0; i < events.size(); i++) {
      assertEquals(EventJson.write(events.get(i)), lines.get(i), "event " + i);
    }
    assertTrue(
        lines.stream().filter(l -> l.length() > 1_000_000).count() >= 10,
        "1 MB values were exported");
    assertTrue(stderr().contains("exported 10000 events to " + file), stderr());
  }

  @Test
  void exportsToStdoutAndFiltersByFrom() {
    Instant t0 = Instant.parse("2026-11-22T10:00:00Z");
    List<Event> events =
        List.of(
            Event.of(t0, "tool.a", "ok"),
            Event.of(t0.plusSeconds(60), "tool.b", "fail"),
            Event.of(t0.plusSeconds(120), "tool.c", "ok"));
    Path queue = queueWith(events);

    assertEquals(
        0, run("export", "--queue", queue.toString(), "--from", "2026-11-22T10:01:00Z"), stderr());

    assertEquals(
        EventJson.write(events.get(1)) + "\n" + EventJson.write(events.get(2)) + "\n", stdout());
  }

  @Test
  void missingQueueDirectoryExitsTwoAndNamesThePath() {
    Path missing = tmp.resolve("no-such-queue");
    assertEquals(2, run("export", "--queue", missing.toString()));
    assertTrue(stderr().contains(missing.toString()), stderr());
    assertTrue(stderr().contains("does not exist"), stderr());
    assertEquals("", stdout());
  }

  @Test
  void directoryThatIsNotAQueueExitsTwoAndIsLeftUntouched() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("plain"));
    Files.writeString(dir.resolve("notes.txt"), "hello");
    assertEquals(2, run("export", "--queue", dir.toString()));
    assertTrue(stderr().contains(dir + " is not a Chronicle queue"), stderr());
    try (var files = Files.list(dir)) {
      assertEquals(List.of(dir.resolve("notes.txt")), files.toList());
    }
  }

  @Test
  void regularFileAsQueueExitsTwo() throws Exception {
    Path file = Files.writeString(tmp.resolve("file"), "x");
    assertEquals(2, run("export", "--queue", file.toString()));
    assertTrue(stderr().contains(file + " is not a directory"), stderr());
  }

  @Test
  void emptyQueueWritesNothingAndExitsZero() {
    Path queue = queueWith(List.of());
    assertEquals(0, run("export", "--queue", queue.toString()), stderr());
    assertEquals("", stdout());
  }

  @Test
  void skipsAndCountsExcerptsThatAreNotVigilEvents() {
    Path dir = tmp.resolve("mixed");
    Event good = Event.of(Instant.parse("2026-11-22T10:00:00Z"), "tool.a", "ok");
    try (ChronicleQueue q = EventQueues.openForWriting(dir)) {
      ExcerptAppender appender = q.createAppender();
      try (DocumentContext dc = appender.writingDocument()) {
        dc.wire().bytes().writeUtf8("foreign");
      }
      EventWire.append(appender, good);
    }
    assertEquals(0, run("export", "--queue", dir.toString()), stderr());
    assertEquals(EventJson.write(good) + "\n", stdout());
    assertTrue(stderr().contains("not_an_event=1"), stderr());
  }

  @Test
  void badFromIsAUsageError() {
    Path queue = queueWith(List.of());
    assertEquals(2, run("export", "--queue", queue.toString(), "--from", "last tuesday"));
    assertTrue(stderr().contains("--from \"last tuesday\""), stderr());
  }

  @Test
  void helpAndMissingOptions() {
    assertEquals(0, run("export", "--help"));
    assertTrue(stdout().contains("--queue=DIR"), stdout());
    assertEquals(2, run("export"));
    assertTrue(stderr().contains("--queue"), stderr());
    assertEquals(2, run());
    assertFalse(stderr().isEmpty());
  }
}
