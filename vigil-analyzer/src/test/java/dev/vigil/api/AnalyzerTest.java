package dev.vigil.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import dev.vigil.orchestrate.Stages;
import dev.vigil.report.Artifacts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The facade (docs/LIBRARY.md): run's options on a builder, a user's own detector, swapped stages,
 * artifacts.
 */
class AnalyzerTest {
  private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");

  @TempDir Path tmp;

  /** Flags every failed call of one kind: derives one event per failure, as it reads the window. */
  private static Detector failuresOf(String name, String kind) {
    return new Detector() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Scan scan(Consumer<Derived> out) {
        Findings found = new Findings(name, out);
        return new Scan() {
          @Override
          public void accept(WindowEvent w) {
            if (w.event().kind().equals(kind) && w.event().status().equals("fail")) {
              found.derive(w, Event.of(w.event().ts(), kind + ".flagged", "fail"));
            }
          }

          @Override
          public Detection finish() {
            return found.detection(
                JsonNodeFactory.instance.objectNode(), found.count() + " flagged");
          }
        };
      }
    };
  }

  private Path events(int n) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      var payload = EventJson.mapper().createObjectNode().put("i", i);
      sb.append(
              EventJson.write(
                  Event.of(
                      NOW.minusSeconds(3600 - 60L * i),
                      "tool.book",
                      i % 2 == 0 ? "fail" : "ok",
                      payload)))
          .append('\n');
    }
    return Files.writeString(tmp.resolve("events.jsonl"), sb.toString());
  }

  private AnalyzerBuilder builder() throws IOException {
    return Analyzer.builder()
        .events(events(10))
        .emobank(tmp.resolve("bank"))
        .out(tmp.resolve("out"))
        .now(NOW)
        .clock(Clock.fixed(NOW, ZoneOffset.UTC));
  }

  @Test
  void aUsersDetectorRunsAfterVigilsAndItsDerivedEventsAreDeposited() throws Exception {
    PassResult r =
        builder().detector(failuresOf("failed_bookings", "tool.book")).build().run().result();
    List<String> names = r.detections().stream().map(Detection::name).toList();
    assertEquals("failed_bookings", names.get(names.size() - 1), names.toString());
    assertEquals(5, r.detections().get(names.size() - 1).count());
    assertEquals(5, r.derivedEvents());
    assertEquals(5, r.derivedDeposited());
    assertEquals(10, r.eventsDeposited());
    assertEquals("diff_done", r.stage());
  }

  @Test
  void aDetectorNamedLikeAnotherIsRefusedNamingBoth() throws Exception {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> builder().detector(failuresOf("latency", "tool.book")).build());
    assertTrue(e.getMessage().contains("the name \"latency\" is taken"), e.getMessage());
  }

  @Test
  void aStageSwappedWithALambdaFailsUnderTheGuardAndTheOthersRun() throws Exception {
    Analysis a =
        builder()
            .stages(
                Stages.defaults()
                    .withDiagnose(
                        (pass, update, detections) -> {
                          throw new IllegalStateException("diagnosis exploded");
                        }))
            .build()
            .run();
    PassResult r = a.result();
    assertTrue(a.degraded());
    assertEquals(1, r.internalThorns().size());
    assertEquals("diagnosed", r.internalThorns().get(0).stage());
    assertTrue(r.diagnosis().provisional());
    assertEquals("diff_done", r.stage());
    assertEquals(10, r.eventsDeposited());
  }

  @Test
  void artifactsAreWrittenOnlyWhenAsked() throws Exception {
    Analysis quiet = builder().writeArtifacts(false).build().run();
    assertEquals(10, quiet.result().eventsUsed());
    assertFalse(Files.exists(tmp.resolve("out").resolve(Artifacts.REPORT_JSON)));
    assertNull(quiet.fleetSummary());

    builder().build().run();
    assertTrue(Files.exists(tmp.resolve("out").resolve(Artifacts.REPORT_JSON)));
    assertEquals(2, Artifacts.passNumber(tmp.resolve("out")));
  }

  @Test
  void exactlyOneInputIsRequired() {
    IllegalArgumentException none =
        assertThrows(IllegalArgumentException.class, () -> Analyzer.builder().build());
    assertTrue(none.getMessage().contains("give exactly one input"), none.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () -> Analyzer.builder().events("a.jsonl").queue(tmp.resolve("q")).build());
  }

  @Test
  void anInputHoldingTwoAgentsIsAnalyzedAsAFleet() throws Exception {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < 6; i++) {
      sb.append(
              EventJson.write(
                  Event.of(NOW.minusSeconds(600 - 60L * i), "tool.book", "ok")
                      .withOrigin(i % 2 == 0 ? "robin" : "wren", null, null, null)))
          .append('\n');
    }
    Path file = Files.writeString(tmp.resolve("fleet.jsonl"), sb.toString());
    Analysis a =
        Analyzer.builder()
            .events(file)
            .emobank(tmp.resolve("bank"))
            .out(tmp.resolve("out"))
            .now(NOW)
            .build()
            .run();
    assertTrue(a.fleet());
    assertEquals(
        List.of("robin", "wren"), a.passes().stream().map(Analysis.AgentPass::agent).toList());
    assertEquals(3, a.passes().get(1).result().eventsUsed());
    assertEquals(2, a.fleetSummary().get("agent_count").asInt());
  }
}
