package dev.vigil.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.vigil.diagnose.detect.Derived;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.diagnose.detect.Detector;
import dev.vigil.diagnose.detect.Findings;
import dev.vigil.diagnose.detect.Scan;
import dev.vigil.diagnose.detect.WindowEvent;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import dev.vigil.orchestrate.PassResult;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The pass walks its window from the input, never holding it: events come to the detectors oldest
 * first whatever their order in the input (within the reorder buffer), the newest {@code --limit}
 * are chosen from any order, and standard input is read like a file.
 */
class StreamedWindowTest {
  private static final Instant NOW = Instant.parse("2026-11-25T12:00:00Z");

  @TempDir Path tmp;

  /** Records the seconds (before now) of every event it is handed, in the order handed. */
  private static class Recorder implements Detector {
    final List<Long> secondsBefore = new ArrayList<>();
    final List<Long> refs = new ArrayList<>();

    @Override
    public String name() {
      return "recorder";
    }

    @Override
    public Scan scan(Consumer<Derived> derived) {
      Findings found = new Findings(name(), derived);
      return new Scan() {
        @Override
        public void accept(WindowEvent w) {
          secondsBefore.add(NOW.getEpochSecond() - w.event().ts().getEpochSecond());
          refs.add(w.ref());
        }

        @Override
        public Detection finish() {
          return found.detection(JsonNodeFactory.instance.objectNode(), "");
        }
      };
    }
  }

  private static String line(long secondsBefore) {
    return "{\"ts\":\""
        + NOW.minusSeconds(secondsBefore)
        + "\",\"kind\":\"tool.search\",\"status\":\"ok\","
        + "\"payload\":{\"n\":"
        + secondsBefore
        + "}}\n";
  }

  /**
   * Events {@code 1..n} seconds before now, each moved at most {@code shift} places from its place
   * in time.
   */
  private Path nearlyInOrder(int n, int shift, long seed) throws IOException {
    List<Long> ages = nearlyInOrderAges(n, shift, seed);
    StringBuilder sb = new StringBuilder();
    ages.forEach(a -> sb.append(line(a)));
    Path file = tmp.resolve("events.jsonl");
    Files.writeString(file, sb.toString());
    return file;
  }

  /** The ages {@code n}, {@code n - 1}, ... 1 seconds: the newest {@code n}, oldest first. */
  private static List<Long> agesDownFrom(long n) {
    List<Long> ages = new ArrayList<>();
    for (long s = n; s >= 1; s--) {
      ages.add(s);
    }
    return ages;
  }

  /**
   * The ages {@code n..1} seconds before now, each moved at most {@code shift} places from its
   * place in time.
   */
  private static List<Long> nearlyInOrderAges(int n, int shift, long seed) {
    List<Long> ages = agesDownFrom(n);
    Random random = new Random(seed);
    for (int i = 0; i + shift < ages.size(); i += shift) {
      Collections.shuffle(ages.subList(i, i + shift), random);
    }
    return ages;
  }

  private PassResult run(AnalyzerBuilder b, Recorder recorder, int limit) throws IOException {
    return b.emobank(tmp.resolve("bank"))
        .out(tmp.resolve("out"))
        .now(NOW)
        .limit(limit)
        .detectors("none")
        .detector(recorder)
        .writeArtifacts(false)
        .build()
        .run()
        .result();
  }

  private static void assertOldestFirst(List<Long> secondsBefore) {
    for (int i = 1; i < secondsBefore.size(); i++) {
      assertTrue(
          secondsBefore.get(i) < secondsBefore.get(i - 1),
          "event " + i + " is not after the one before it");
    }
  }

  @Test
  void eventsOutOfOrderInTheInputReachTheDetectorsOldestFirst() throws Exception {
    Recorder recorder = new Recorder();
    PassResult r =
        run(Analyzer.builder().events(nearlyInOrder(20_000, 500, 7)), recorder, 1_000_000);

    assertEquals(20_000, recorder.secondsBefore.size());
    assertOldestFirst(recorder.secondsBefore);
    assertEquals(20_000, r.eventsUsed());
    assertEquals(0, r.bank().sweep().outOfOrder());
  }

  @Test
  void theNewestLimitAreChosenFromAnyOrder() throws Exception {
    Recorder recorder = new Recorder();
    PassResult r = run(Analyzer.builder().events(nearlyInOrder(10_000, 10_000, 11)), recorder, 300);

    assertEquals(300, recorder.secondsBefore.size());
    assertEquals(300L, recorder.secondsBefore.get(0), "the oldest used is the 300th newest");
    assertEquals(1L, recorder.secondsBefore.get(299));
    assertOldestFirst(recorder.secondsBefore);
    assertEquals(10_000, r.eventsInWindow());
  }

  @Test
  void aFileReadInPartsFindsTheNewestOfAllPartsWithTheirLineNumbersAndCountsEveryPart()
      throws Exception {
    int n = 60_000; // about 6 MB: read in two parts side by side
    List<Long> ages = new ArrayList<>();
    for (long s = n; s >= 1; s--) {
      ages.add(s);
    }
    Collections.shuffle(ages, new Random(13));
    StringBuilder sb = new StringBuilder();
    java.util.Map<Long, Long> lineOf = new java.util.HashMap<>();
    long lineNo = 0;
    for (int i = 0; i < n; i++) {
      if (i % 997 == 0) {
        sb.append("not json\n");
        lineNo++;
      }
      if (i % 1000 == 0) {
        sb.append("  \r\n");
        lineNo++;
      }
      sb.append(line(ages.get(i)));
      lineOf.put(ages.get(i), ++lineNo);
    }
    Path file = tmp.resolve("large.jsonl");
    Files.writeString(file, sb.toString());
    assertTrue(
        Files.size(file) > dev.vigil.ingest.JsonlSourceTest.SPLIT_BYTES, "large enough to split");
    Recorder recorder = new Recorder();
    PassResult r = run(Analyzer.builder().events(file), recorder, 1_000);

    List<Long> expected = agesDownFrom(1_000);
    assertEquals(expected, recorder.secondsBefore);
    assertEquals(expected.stream().map(lineOf::get).toList(), recorder.refs);
    assertEquals(n, r.eventsRead());
    assertEquals(n, r.eventsInWindow());
    assertEquals(java.util.Map.of("not_json", (long) (n + 996) / 997), r.skipped());
  }

  @Test
  void anEventFartherOutOfPlaceThanTheBufferIsHandedOnAtOnceAndCounted() throws Exception {
    StringBuilder sb = new StringBuilder();
    for (long s = 10_000; s >= 2; s--) {
      sb.append(line(s));
    }
    sb.append(line(10_001)); // older than all, last in the input
    Path file = tmp.resolve("late.jsonl");
    Files.writeString(file, sb.toString());
    Recorder recorder = new Recorder();
    PassResult r = run(Analyzer.builder().events(file), recorder, 1_000_000);

    assertEquals(10_000, recorder.secondsBefore.size());
    assertEquals(1, r.bank().sweep().outOfOrder());
    assertOldestFirst(recorder.secondsBefore.subList(0, 9_999 - 4096));
  }

  @Test
  void theNewestLimitOfAQueueAreChosenFromAnyOrderAndReadAgainFromTheOldestUsed() throws Exception {
    Path queue = tmp.resolve("queue");
    List<Long> ages = nearlyInOrderAges(20_000, 500, 17);
    java.util.Map<Long, Long> seqOf = new java.util.HashMap<>();
    try (ChronicleQueue q = EventQueues.openForWriting(queue)) {
      ExcerptAppender appender = q.createAppender();
      long seq = 0;
      for (long age : ages) {
        seq++;
        seqOf.put(age, seq);
        EventWire.append(
            appender,
            Event.of(NOW.minusSeconds(age), "tool.search", "ok").withOrigin("a", seq, 1L, "main"));
        if (seq % 3 == 0) { // an event before the window beside it, which the pass passes over
          EventWire.append(appender, Event.of(NOW.minus(Duration.ofDays(2)), "tool.old", "ok"));
        }
      }
    }
    Recorder recorder = new Recorder();
    PassResult r = run(Analyzer.builder().queue(queue), recorder, 700);

    List<Long> expected = agesDownFrom(700);
    assertEquals(expected, recorder.secondsBefore);
    assertEquals(expected.stream().map(seqOf::get).toList(), recorder.refs);
    assertEquals(20_000, r.eventsInWindow());
  }

  @Test
  void aQueueIsReadAgainOnlyUpToTheLastExcerptTheFirstReadingSaw() throws Exception {
    Path queue = tmp.resolve("queue");
    try (ChronicleQueue q = EventQueues.openForWriting(queue)) {
      ExcerptAppender appender = q.createAppender();
      for (long s = 100; s >= 1; s--) {
        EventWire.append(appender, Event.of(NOW.minusSeconds(s), "tool.search", "ok"));
      }
    }
    Recorder recorder =
        new Recorder() {
          @Override
          public Scan scan(Consumer<Derived> derived) {
            Scan inner = super.scan(derived);
            return new Scan() {
              @Override
              public void accept(WindowEvent w) {
                if (secondsBefore.isEmpty()) { // the agent appends while the pass walks the window
                  try (ChronicleQueue q = EventQueues.openForWriting(queue)) {
                    ExcerptAppender appender = q.createAppender();
                    for (int i = 0; i < 50; i++) {
                      EventWire.append(appender, Event.of(NOW.minusMillis(500), "tool.late", "ok"));
                    }
                  }
                }
                inner.accept(w);
              }

              @Override
              public Detection finish() {
                return inner.finish();
              }
            };
          }
        };
    PassResult r = run(Analyzer.builder().queue(queue), recorder, 1_000_000);

    assertEquals(
        100,
        recorder.secondsBefore.size(),
        "the 50 appended after the first reading wait for the next pass");
    assertEquals(100, r.eventsUsed());
  }

  @Test
  void standardInputIsReadTwiceLikeAFile() throws Exception {
    StringBuilder sb = new StringBuilder();
    for (long s = 50; s >= 1; s--) {
      sb.append(line(s));
    }
    Recorder recorder = new Recorder();
    PassResult r =
        run(
            Analyzer.builder()
                .events("-")
                .stdin(new ByteArrayInputStream(sb.toString().getBytes(StandardCharsets.UTF_8))),
            recorder,
            20);

    assertEquals(20, recorder.secondsBefore.size());
    assertEquals(20L, recorder.secondsBefore.get(0));
    assertEquals(50, r.eventsRead());
  }
}
