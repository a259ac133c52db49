package dev.vigil.orchestrate.llm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.vigil.diagnose.detect.WindowEvent;
import dev.vigil.dialogue.Claims;
import dev.vigil.ingest.EventIdentity;
import dev.vigil.observe.EventJson;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The judge reads turns through the one model of the dialogue: events without a turn id form turns
 * by position (they were dropped before), a session is the same key everywhere, and the claim words
 * are the rules file's.
 */
class TurnTest {
  private static List<WindowEvent> window(String... lines) throws Exception {
    List<WindowEvent> out = new ArrayList<>();
    for (int i = 0; i < lines.length; i++) {
      var p = EventJson.read(lines[i], ZoneOffset.UTC);
      out.add(new WindowEvent(p.event(), EventIdentity.ofContent(p.event()), i + 1, p.naiveTs()));
    }
    return out;
  }

  private static String line(int second, String kind, String payload, String session) {
    return "{\"ts\":\"2026-11-22T12:00:"
        + String.format("%02d", second)
        + "Z\",\"kind\":\""
        + kind
        + "\",\"status\":\"ok\",\"payload\":"
        + payload
        + ",\"agent\":\"shop\""
        + (session == null ? "" : ",\"session\":\"" + session + "\"")
        + "}";
  }

  @Test
  void eventsWithoutTurnIdsFormTurnsByPosition() throws Exception {
    List<Turn> turns =
        Turn.all(
            window(
                line(1, "turn.user", "{\"text\":\"remind me at 9\"}", "s1"),
                line(
                    2,
                    "tool.set_reminder",
                    "{\"tool\":\"set_reminder\",\"args\":{\"at\":\"9\"}}",
                    "s1"),
                line(3, "turn.answer", "{\"text\":\"Your reminder is scheduled.\"}", "s1"),
                line(4, "turn.user", "{\"text\":\"and cancel the other one\"}", "s1"),
                line(5, "turn.answer", "{\"text\":\"I have cancelled it.\"}", "s1")));
    assertEquals(2, turns.size(), "both positional turns reach the judge");
    assertEquals(List.of("#1", "#2"), turns.stream().map(Turn::id).toList());
    assertEquals(1, turns.get(0).calls().size());
    assertEquals(0, turns.get(1).calls().size());
    assertEquals(
        "scheduled", turns.get(0).claim(Claims.DEFAULTS), "the detector's words, not 15 of them");
    assertEquals("cancelled", turns.get(1).claim(Claims.DEFAULTS));
    List<WindowEvent> w =
        window(
            line(1, "turn.user", "{\"text\":\"x\"}", "s1"),
            line(2, "turn.answer", "{\"text\":\"y\"}", null),
            line(3, "turn.user", "{\"text\":\"z\"}", "s1"));
    assertEquals(
        List.of(1L),
        Turn.all(w).get(2).earlier(w).stream().map(WindowEvent::ref).toList(),
        "earlier evidence is the same session's: the agent's event belongs to session shop");
  }

  @Test
  void aSessionWithoutIdIsItsAgentAsForEveryOtherReader() throws Exception {
    List<Turn> turns =
        Turn.all(
            window(
                line(1, "turn.user", "{\"text\":\"hi\"}", null),
                line(2, "turn.answer", "{\"text\":\"hello\"}", null),
                line(3, "turn.user", "{\"text\":\"hi\"}", " ")));
    assertEquals(
        List.of("shop", "shop"),
        turns.stream().map(Turn::session).toList(),
        "no session and a blank one are both the agent's");
  }

  @Test
  void theRulesFilesClaimWordsReachTheJudge() throws Exception {
    Claims mine = new Claims(Map.of("rebooked", List.of("book")));
    List<Turn> turns =
        Turn.all(
            window(
                line(1, "turn.user", "{\"text\":\"move my table\"}", "s"),
                line(2, "turn.answer", "{\"text\":\"Rebooked for 8 pm.\"}", "s")));
    assertEquals("rebooked", turns.get(0).claim(mine));
    assertNull(turns.get(0).claim(Claims.DEFAULTS));
  }
}
