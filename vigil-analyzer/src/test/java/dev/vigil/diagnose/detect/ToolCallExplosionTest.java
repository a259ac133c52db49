package dev.vigil.diagnose.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ToolCallExplosionTest {
  private static List<String> turn(String turn, int calls, int startMinute) {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < calls; i++) {
      lines.add(String.format("{\"ts\":\"2026-11-22T12:%02d:%02dZ\",\"kind\":\"tool.apply_fix\",\"status\":\"fail\","
          + "\"turn\":\"%s\",\"payload\":{}}", startMinute, i, turn));
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
    assertEquals("{\"max_calls\":8,\"turns\":[{\"turn\":\"t-2\",\"calls\":15,\"first\":4,\"last\":18,"
        + "\"tools\":{\"tool.apply_fix\":15}}],"
        + "\"turns_total\":1}", d.evidence().toString());
    assertEquals(ToolCallExplosion.KIND, d.derived().get(0).event().kind());
    assertEquals("t-2", d.derived().get(0).event().turn());
    assertEquals("turn t-2 made 15 tool calls against a budget of 8", d.summary());
  }

  @Test
  void turnsWithinTheBudgetAndEventsWithoutATurnAreFine() {
    List<String> lines = new ArrayList<>(turn("t-1", 8, 0));
    for (int i = 0; i < 20; i++) {
      lines.add(String.format("{\"ts\":\"2026-11-22T12:30:%02dZ\",\"kind\":\"tool.x\",\"status\":\"ok\","
          + "\"payload\":{}}", i));
    }
    assertEquals(0, new ToolCallExplosion(DetectorSettings.DEFAULTS).detect(Logs.window(lines)).count());
  }
}
