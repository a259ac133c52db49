package dev.vigil.watch;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.api.Analyzer;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import dev.vigil.orchestrate.PassOptions;
import dev.vigil.report.Chromium;
import dev.vigil.report.ChromiumExtension;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code watch}'s {@code OUT/index.html} after three passes, opened in a real headless Chromium.
 */
@ExtendWith(ChromiumExtension.class)
class PassIndexTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir Path tmp;

  /** The events' time; the watcher's clock starts a minute later and steps 1 ms a read. */
  private static final Instant EVENTS_AT = Instant.parse("2026-11-24T10:00:00Z");

  private final StringWriter out = new StringWriter();

  private PassOptions template(Path queue) {
    return WatchOptions.of(queue, tmp, EVENTS_AT.plusSeconds(60));
  }

  private static void append(Path queue, int n, String status) {
    try (ChronicleQueue q = EventQueues.openForWriting(queue)) {
      ExcerptAppender a = q.createAppender();
      for (int i = 0; i < n; i++) {
        EventWire.append(
            a, Event.of(EVENTS_AT, "tool.look_up", status).withOrigin("robin", null, null, null));
      }
    }
  }

  private long passesDone() {
    return out.toString().lines().filter(l -> l.contains(" stage=diff_done ")).count();
  }

  @Test
  void listsThePassesNewestFirstWithTheirAlarmChartedAndLinked(Chromium chromium) throws Exception {
    Path queue = tmp.resolve("queue");
    append(queue, 0, "ok");
    Watcher watcher =
        new Watcher(
            new Watcher.Settings(template(queue), null, 2, null),
            o -> Analyzer.builder().queue(o.queue()).build().run(o),
            new SteppingClock(EVENTS_AT.plusSeconds(60), Duration.ofMillis(1)),
            new PrintWriter(out, true),
            new PrintWriter(new StringWriter(), true));
    CompletableFuture<Watcher.Totals> running =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return watcher.run();
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    String[] statuses = {"ok", "fail", "fail"};
    for (int i = 0; i < statuses.length; i++) {
      append(queue, 2, statuses[i]);
      long done = i + 1L;
      await().atMost(Duration.ofSeconds(60)).until(() -> passesDone() == done);
    }
    watcher.stop();
    running.get();

    Path dir = tmp.resolve("out");
    List<Path> kept = new ArrayList<>(PassIndex.passDirs(dir.resolve(PassArchive.PASSES)));
    assertEquals(3, kept.size());
    List<String> newestFirst = new ArrayList<>();
    List<JsonNode> passes = new ArrayList<>();
    for (Path p : kept) {
      passes.add(MAPPER.readTree(p.resolve(WatchPasses.PASS_JSON).toFile()));
    }
    passes.sort(Comparator.comparing((JsonNode p) -> p.get("pass_at").asText()).reversed());
    passes.forEach(p -> newestFirst.add(p.get("pass_at").asText()));

    Chromium.Load load = chromium.open(dir.resolve(PassIndex.INDEX_HTML));

    assertEquals(List.of(), load.errors());
    assertEquals(List.of(), load.requests());
    List<String> shown = new ArrayList<>();
    chromium
        .evaluate(
            "[...document.querySelectorAll('#passes tr.pass td:first-child')].map(td => td.textContent)")
        .forEach(n -> shown.add(n.asText()));
    assertEquals(newestFirst, shown);
    assertEquals(
        passes.get(0).at("/alarm/level").asText(),
        chromium.evaluate("document.querySelector('#latest-alarm .level').textContent").asText());
    assertEquals("ok", passes.get(2).at("/alarm/level").asText(), "the first pass saw no failure");
    assertTrue(passes.get(0).at("/alarm/score").asDouble() > 0, "the last pass saw four failures");
    assertEquals(
        3,
        chromium.evaluate("document.querySelectorAll('#alarm-chart circle.mark').length").asInt());
    assertTrue(
        chromium
            .evaluate("document.querySelector('#alarm-chart polyline').getTotalLength() > 100")
            .asBoolean(),
        "the alarm line is drawn");
    Files.write(Path.of("target", "index.png"), chromium.screenshot());
    List<Path> linked = new ArrayList<>();
    chromium
        .evaluate("[...document.querySelectorAll('#passes a')].map(a => a.href)")
        .forEach(n -> linked.add(Path.of(URI.create(n.asText()))));
    assertEquals(3, linked.size());
    for (Path report : linked) {
      assertTrue(Files.isRegularFile(report), report + " is linked but missing");
    }
    assertEquals(
        List.of(), chromium.open(linked.get(0)).errors(), "the newest pass's report loads cleanly");
    assertEquals(
        passes.get(0).at("/alarm/level").asText(),
        chromium.evaluate("document.querySelector('#alarm .level').textContent").asText());
  }
}
