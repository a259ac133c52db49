package dev.vigil.diagnose.detect;

import static dev.vigil.diagnose.detect.Logs.at;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class LatencyTest {
  private static List<String> calls(String kind, double... durations) {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < durations.length; i++) {
      lines.add(at(i, 0, kind, "ok", "{\"duration_ms\":" + durations[i] + "}"));
    }
    return lines;
  }

  @Test
  void aCallSlowerThanThreeTimesTheMedianAndOneSecondIsLate() {
    List<String> lines = calls("tool.search", 100, 120, 90, 110, 5000, 100, 2000);
    Detection d = new Latency(DetectorSettings.DEFAULTS).detect(Logs.window(lines));
    assertEquals(2, d.count(), "budget max(3 x 110 ms, 1 s) = 1 s: the 5 s and the 2 s calls");
    assertEquals(
        "{\"tools\":[{\"kind\":\"tool.search\",\"calls\":7,\"median_ms\":110.0,\"budget_ms\":1000.0,"
            + "\"budget\":\"median\",\"slow\":[{\"ref\":5,\"duration_ms\":5000.0},{\"ref\":7,\"duration_ms\":2000.0}],"
            + "\"slow_total\":2}],\"tools_total\":1}",
        d.evidence().toString());
    assertEquals("tool.search.latency", d.derived().get(0).event().kind());
    assertEquals("delay", d.derived().get(0).event().status());
    assertEquals(4.0, d.derived().get(0).event().payload().get("delayed_by_sec").asDouble(), 1e-9);
    assertEquals(
        "2 calls over budget; slowest: tool.search took 5.0 s against a budget of 1.0 s",
        d.summary());
  }

  @Test
  void steadyCallsUnderTheirBudgetAreNotLate() {
    List<String> lines = calls("tool.search", 100, 900, 300, 950, 120);
    assertEquals(0, new Latency(DetectorSettings.DEFAULTS).detect(Logs.window(lines)).count());
  }

  @Test
  void aConfiguredBudgetReplacesTheMedian() throws Exception {
    DetectorSettings s =
        DetectorSettings.parse(
            new ObjectMapper()
                .readTree("{\"detectors\":{\"latency\":{\"budgets_ms\":{\"tool.search\":200}}}}"),
            "test rules");
    List<String> lines = calls("tool.search", 100, 250, 150, 400);
    Detection d = new Latency(s).detect(Logs.window(lines));
    assertEquals(2, d.count());
    assertEquals("configured", d.evidence().at("/tools/0/budget").asText());
    assertEquals(0.2, d.derived().get(1).event().payload().get("delayed_by_sec").asDouble(), 1e-9);
  }

  @Test
  void eachToolHasItsOwnBudget() {
    List<String> lines = new ArrayList<>(calls("tool.fast", 10, 10, 10));
    lines.addAll(calls("tool.slow", 8000, 9000, 8500));
    assertEquals(0, new Latency(DetectorSettings.DEFAULTS).detect(Logs.window(lines)).count());
  }

  @Test
  void aBusyToolIsJudgedAgainstItsRunningMedianInBoundedState() {
    List<Derived> sink = new ArrayList<>();
    Latency.Reading scan = new Latency(DetectorSettings.DEFAULTS).start(sink::add);
    Instant t0 = Instant.parse("2026-11-22T00:00:00Z");
    int maxHeld = 0;
    for (int i = 0; i < 200_000; i++) {
      double ms =
          i % 100 == 99 ? 5000 : 80 + i % 41; // every 100th call takes 5 s, the rest 80-120 ms
      scan.accept(
          Logs.event(
              i + 1, t0.plusMillis(i * 100L), "tool.search", "ok", null, Logs.durationMs(ms)));
      maxHeld = Math.max(maxHeld, scan.held());
    }
    assertEquals(0, scan.held(), "past 1,000 calls nothing waits");
    assertEquals(
        10, maxHeld, "the 5 s calls among the first 1,000 waited; the fast ones never did");
    Detection d = scan.finish();
    assertEquals(2_000, d.count());
    assertEquals(2_000, sink.size(), "each slow call went to the sink once");
    JsonNode tool = d.evidence().at("/tools/0");
    assertEquals("running_median", tool.get("budget").asText());
    assertEquals(200_000, tool.get("calls").asLong());
    assertEquals(100, tool.get("median_ms").asDouble(), 100 * DurationSketch.ALPHA);
    assertEquals(Findings.MAX_CITED, tool.get("slow").size());
    assertEquals(2_000, tool.get("slow_total").asLong());
    assertEquals(200_000, tool.at("/slow/49/ref").asLong(), "the newest slow calls are kept");
    assertEquals(1000.0, tool.at("/slow/49/budget_ms").asDouble(), "max(3 x ~100 ms, 1 s)");
    assertTrue(d.cited().size() <= Findings.MAX_CITED);
  }

  @Test
  void aToolWithUpToAThousandCallsIsJudgedAgainstTheWholeWindowsMedian() {
    // 1,000 calls, the first 400 at 2 s, then 600 at 100 ms: the window's median is 100 ms, budget
    // 1 s, so the
    // first 400 are slow even though the median of the calls before them was 2 s
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      lines.add(
          String.format(
              "{\"ts\":\"2026-11-22T12:%02d:%02dZ\",\"kind\":\"tool.search\",\"status\":\"ok\","
                  + "\"payload\":{\"duration_ms\":%d}}",
              i / 60 % 60, i % 60, i < 400 ? 2000 : 100));
    }
    Detection d = new Latency(DetectorSettings.DEFAULTS).detect(Logs.window(lines));
    assertEquals(400, d.count());
    assertEquals("median", d.evidence().at("/tools/0/budget").asText());
    assertEquals(100.0, d.evidence().at("/tools/0/median_ms").asDouble());
  }
}
