package dev.vigil.api;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.vigil.diagnose.detect.Derived;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.diagnose.detect.Detector;
import dev.vigil.diagnose.detect.Findings;
import dev.vigil.diagnose.detect.Scan;
import dev.vigil.diagnose.detect.WindowEvent;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventJson;
import dev.vigil.orchestrate.PassResult;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The detectors sweep the window on a thread of their own, a few batches ahead of the appraisals
 * and deposits on the pass's thread (docs/COMMANDS.md#memory): every event and every derived event
 * is deposited once, in time order; a detector that fails fails the bank stage under its guard with
 * its own message, and the bank keeps nothing of the pass; an interrupted pass is cancelled and
 * leaves no sweeping thread behind.
 */
class SweepBesideDepositsTest {
  private static final Instant NOW = Instant.parse("2026-11-29T12:00:00Z");

  /** Not a multiple of the hand-over's 256: the last, partial batch must be deposited too. */
  private static final int EVENTS = 5_000;

  @TempDir Path tmp;

  /**
   * Records the threads it runs on and derives an event from every 7th event; fails at event {@code
   * failAt}, or waits there, interruptibly, for {@code release} (0: neither).
   */
  private static final class Flagger implements Detector {
    final Set<String> threads = ConcurrentHashMap.newKeySet();
    final int failAt;
    final CountDownLatch reached = new CountDownLatch(1);
    final CountDownLatch release;

    Flagger(int failAt, CountDownLatch release) {
      this.failAt = failAt;
      this.release = release;
    }

    @Override
    public String name() {
      return "flagger";
    }

    @Override
    public Scan scan(Consumer<Derived> derived) {
      Findings found = new Findings(name(), derived);
      return new Scan() {
        int seen;

        @Override
        public void accept(WindowEvent w) {
          threads.add(Thread.currentThread().getName());
          seen++;
          if (seen == failAt) {
            reached.countDown();
            if (release == null) {
              throw new IllegalStateException("the flagger gave up at event " + seen);
            }
            try {
              release.await();
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              throw new IllegalStateException("the flagger was interrupted", e);
            }
          }
          if (seen % 7 == 0) {
            found.derive(w, Event.of(w.event().ts(), "tool.flagged", "fail"));
          }
        }

        @Override
        public Detection finish() {
          return found.detection(JsonNodeFactory.instance.objectNode(), "");
        }
      };
    }
  }

  /** {@link #EVENTS} calls a second apart, the newest a second before now, failures among them. */
  private Path events() throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int i = EVENTS; i >= 1; i--) {
      var payload = EventJson.mapper().createObjectNode().put("tool", "book").put("i", i);
      Event e = Event.of(NOW.minusSeconds(i), "tool.book", i % 5 == 0 ? "fail" : "ok", payload);
      sb.append(EventJson.write(e)).append('\n');
    }
    Path file = tmp.resolve("events.jsonl");
    Files.writeString(file, sb.toString());
    return file;
  }

  private Analyzer analyzer(Flagger flagger) throws IOException {
    return Analyzer.builder()
        .events(events())
        .emobank(tmp.resolve("bank"))
        .out(tmp.resolve("out"))
        .now(NOW)
        .limit(EVENTS)
        .detectors("none")
        .detector(flagger)
        .writeArtifacts(false)
        .build();
  }

  private List<JsonNode> rows() throws IOException {
    Path rows = tmp.resolve("bank").resolve("emotions.jsonl");
    if (!Files.exists(rows)) {
      return List.of();
    }
    List<JsonNode> parsed = new ArrayList<>();
    for (String line : Files.readAllLines(rows)) {
      parsed.add(EventJson.mapper().readTree(line));
    }
    return parsed;
  }

  @Test
  void everyEventAndEveryDerivedEventIsDepositedOnceInTimeOrderWhileTheDetectorsRunBeside()
      throws Exception {
    Flagger flagger = new Flagger(0, null);
    PassResult r = analyzer(flagger).run().result();

    assertEquals(Set.of("vigil-sweep"), flagger.threads, "the detectors' thread");
    assertEquals(EVENTS, r.eventsDeposited());
    assertEquals(EVENTS / 7, r.derivedEvents());
    assertEquals(EVENTS / 7, r.derivedDeposited());
    List<JsonNode> rows = rows();
    // the bank's own rows (source shadow) come beside those of the events
    assertEquals(
        EVENTS + EVENTS / 7,
        rows.stream().filter(row -> row.get("source").asText().equals("event")).count());
    assertEquals(
        EVENTS / 7,
        rows.stream().filter(row -> row.get("cause").asText().equals("tool.flagged:fail")).count());
    for (int i = 1; i < rows.size(); i++) {
      Instant before = Instant.parse(rows.get(i - 1).get("ts").asText());
      Instant at = Instant.parse(rows.get(i).get("ts").asText());
      assertFalse(at.isBefore(before), "row " + i + " is older than the row before it");
      if (rows.get(i).get("cause").asText().equals("tool.flagged:fail")) {
        assertEquals(before, at, "a derived row follows the row of the event it is about");
      }
    }
  }

  @Test
  void aDetectorThatFailsFailsTheBankStageWithItsMessageAndTheBankKeepsNothing() throws Exception {
    Analysis a = analyzer(new Flagger(3_000, null)).run();

    assertTrue(a.degraded());
    PassResult r = a.result();
    // the bank stage, then its fallback's reading of the window without a bank
    assertEquals(2, r.internalThorns().size(), r.internalThorns().toString());
    for (var thorn : r.internalThorns()) {
      assertEquals("eb_updated", thorn.stage());
      assertEquals("the flagger gave up at event 3000", thorn.message());
    }
    assertEquals(List.of(), rows(), "nothing of the failed pass is in the bank");
  }

  @Test
  void anInterruptedPassIsCancelledAndLeavesNoSweepingThread() throws Exception {
    CountDownLatch never = new CountDownLatch(1);
    Flagger flagger = new Flagger(1_000, never);
    Analyzer analyzer = analyzer(flagger);
    AtomicReference<Throwable> outcome = new AtomicReference<>();
    Thread pass =
        new Thread(
            () -> {
              try {
                analyzer.run();
                outcome.set(new AssertionError("the pass ran to its end"));
              } catch (Throwable t) {
                outcome.set(t);
              }
            },
            "pass");
    pass.start();
    flagger.reached.await();

    pass.interrupt();

    pass.join(Duration.ofMinutes(1).toMillis());
    assertFalse(pass.isAlive(), "the pass ended");
    assertInstanceOf(CancellationException.class, outcome.get());
    await()
        .atMost(Duration.ofMinutes(1))
        .until(
            () ->
                Thread.getAllStackTraces().keySet().stream()
                    .noneMatch(t -> t.getName().equals("vigil-sweep")));
    assertEquals(List.of(), rows(), "nothing of the cancelled pass is in the bank");
  }
}
