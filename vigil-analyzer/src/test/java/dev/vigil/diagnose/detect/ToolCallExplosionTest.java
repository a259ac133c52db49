package dev.vigil.diagnose.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ToolCallExplosionTest {
  private static List<String> turn(String turn, int calls, int startMinute) {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < calls; i++) {
      lines.add(
          String.format(
              "{\"ts\":\"2026-11-22T12:%02d:%02dZ\",\"kind\":\"tool.apply_fix\",\"status\":\"fail\","
                  + "\"turn\":\"%s\",\"payload\":{}}",
              startMinute, i, turn));
    }
    return lines;
  }

  @Test
  void moreThanEightCallsInOneTurnIsAnExplosionNamingTheTurn() {
    List<String> lines = new ArrayList<>(turn("t-1", 3, 0));
    lines.addAll(turn("t-2", 15, 1));
    lines.addAll(turn("t-3", 8, 2));
    Detection d = new ToolCallExplosion(DetectorSettings.DEFAULTS).detect(Logs.window(lines));
    assertEquals(1, d.count());
    assertEquals(
        "{\"max_calls\":8,\"turns\":[{\"turn\":\"t-2\",\"calls\":15,\"first\":4,\"last\":18,"
            + "\"tools\":{\"tool.apply_fix\":15}}],"
            + "\"turns_total\":1}",
        d.evidence().toString());
    assertEquals(ToolCallExplosion.KIND, d.derived().get(0).event().kind());
    assertEquals("t-2", d.derived().get(0).event().turn());
    assertEquals("turn t-2 made 15 tool calls against a budget of 8", d.summary());
  }

  @Test
  void turnsWithinTheBudgetAndEventsWithoutATurnAreFine() {
    List<String> lines = new ArrayList<>(turn("t-1", 8, 0));
    for (int i = 0; i < 20; i++) {
      lines.add(
          String.format(
              "{\"ts\":\"2026-11-22T12:30:%02dZ\",\"kind\":\"tool.x\",\"status\":\"ok\","
                  + "\"payload\":{}}",
              i));
    }
    assertEquals(
        0, new ToolCallExplosion(DetectorSettings.DEFAULTS).detect(Logs.window(lines)).count());
  }

  @Test
  void turnsOverBudgetAtScaleAreJudgedOnceIdleAndFewStayOpen() {
    // 200,000 calls a second apart, 12 per turn: 16,666 turns over budget and one last turn of 8
    // calls
    List<Derived> sink = new ArrayList<>();
    ToolCallExplosion.Reading scan =
        new ToolCallExplosion(DetectorSettings.DEFAULTS).start(sink::add);
    Instant t0 = Instant.parse("2026-11-22T00:00:00Z");
    int maxOpen = 0;
    for (int i = 0; i < 200_000; i++) {
      scan.accept(
          Logs.event(
              i + 1,
              t0.plusSeconds(i),
              "tool.search",
              "ok",
              "t-" + i / 12,
              JsonNodeFactory.instance.objectNode()));
      maxOpen = Math.max(maxOpen, scan.openTurns());
    }
    assertTrue(
        maxOpen <= 3_600 / 12 + 2,
        "the turns of the last hour are open, not the window's: " + maxOpen);
    Detection d = scan.finish();
    assertEquals(16_666, d.count());
    assertEquals(16_666, sink.size());
    assertEquals(Findings.MAX_CITED, d.evidence().get("turns").size());
    assertEquals(16_666, d.evidence().get("turns_total").asLong());
    assertEquals(
        "{\"turn\":\"t-16665\",\"calls\":12,\"first\":199981,\"last\":199992,"
            + "\"tools\":{\"tool.search\":12}}",
        d.evidence().at("/turns/49").toString());
    assertEquals(
        12,
        sink.get(0).event().payload().get("calls").asInt(),
        "the payload has all the turn's calls");
    assertEquals(0, scan.openTurns());
    assertTrue(d.cited().size() <= Findings.MAX_CITED);
  }

  @Test
  void atMostFourThousandTurnsAreOpenAndThoseClosedEarlyAreCounted() {
    ToolCallExplosion.Reading scan =
        new ToolCallExplosion(DetectorSettings.DEFAULTS).start(d -> {});
    Instant t0 = Instant.parse("2026-11-22T00:00:00Z");
    for (int i = 0; i < 200_000; i++) { // every call a turn of its own, a millisecond apart
      scan.accept(
          Logs.event(
              i + 1,
              t0.plusMillis(i),
              "tool.search",
              "ok",
              "t-" + i,
              JsonNodeFactory.instance.objectNode()));
      assertTrue(scan.openTurns() <= ToolCallExplosion.MAX_OPEN_TURNS);
    }
    assertEquals(ToolCallExplosion.MAX_OPEN_TURNS, scan.openTurns());
    Detection d = scan.finish();
    assertEquals(0, d.count());
    assertEquals(
        200_000 - ToolCallExplosion.MAX_OPEN_TURNS,
        d.evidence().get("turns_closed_early").asLong());
  }
}
