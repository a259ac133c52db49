package dev.vigil.diagnose.detect;

import static dev.vigil.diagnose.detect.Logs.at;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
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
    assertEquals("{\"tools\":[{\"kind\":\"tool.search\",\"calls\":7,\"median_ms\":110.0,\"budget_ms\":1000.0,"
        + "\"budget\":\"median\",\"slow\":[{\"ref\":5,\"duration_ms\":5000.0},{\"ref\":7,\"duration_ms\":2000.0}],"
        + "\"slow_total\":2}],\"tools_total\":1}",
        d.evidence().toString());
    assertEquals("tool.search.latency", d.derived().get(0).event().kind());
    assertEquals("delay", d.derived().get(0).event().status());
    assertEquals(4.0, d.derived().get(0).event().payload().get("delayed_by_sec").asDouble(), 1e-9);
    assertEquals("2 calls over budget; slowest: tool.search took 5.0 s against a budget of 1.0 s", d.summary());
  }

  @Test
  void steadyCallsUnderTheirBudgetAreNotLate() {
    List<String> lines = calls("tool.search", 100, 900, 300, 950, 120);
    assertEquals(0, new Latency(DetectorSettings.DEFAULTS).detect(Logs.window(lines)).count());
  }

  @Test
  void aConfiguredBudgetReplacesTheMedian() throws Exception {
    DetectorSettings s = DetectorSettings.parse(new ObjectMapper().readTree(
        "{\"detectors\":{\"latency\":{\"budgets_ms\":{\"tool.search\":200}}}}"), "test rules");
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
}
