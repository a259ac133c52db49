package dev.vigil.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.diagnose.detect.WindowEvent;
import dev.vigil.observe.Event;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The events a detector's evidence cites, found by ref at any depth, the newest listed. */
class EvidenceEventsTest {
  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final Instant T0 = Instant.parse("2026-11-22T00:00:00Z");

  /**
   * Events with refs 1..n, a minute apart; even ones failed with an error, odd ones succeeded with
   * a result.
   */
  private static List<WindowEvent> window(int n) {
    List<WindowEvent> w = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      ObjectNode p = MAPPER.createObjectNode();
      p.putObject("args").put("slot", i);
      if (i % 2 == 0) {
        p.putObject("error").put("type", "IOException").put("message", "refused " + i);
      } else {
        p.put("result", "booked " + i);
      }
      Event e =
          Event.of(T0.plusSeconds(60L * i), "tool.book", i % 2 == 0 ? "fail" : "ok", p)
              .withSession("s1")
              .withCall("t" + i, null);
      w.add(new WindowEvent(e, i, i, false));
    }
    return w;
  }

  private static JsonNode json(String s) throws Exception {
    return MAPPER.readTree(s);
  }

  @Test
  void refsAreFoundUnderTheirFieldsAtAnyDepthAndOtherNumbersAreNot() throws Exception {
    EvidenceEvents events = new EvidenceEvents(window(10));
    EvidenceEvents.Listing l =
        events.of(
            json(
                "{\"count\": 3, \"instances\": [{\"success\": 2, \"confirmation\": 5,"
                    + " \"receipt_lag_sec\": 7}], \"plateaus\": [{\"refs\": [8, 9, 99]}], \"first_naive\": 4,"
                    + " \"repeated_ref\": 1}"));

    assertEquals(7, l.cited(), "2, 5, 8, 9, 99, 4, 1; not the count 3 nor the lag 7");
    assertEquals(6, l.resolved(), "99 is not in the window");
    assertEquals(
        List.of(1L, 2L, 4L, 5L, 8L, 9L),
        l.events().stream().map(EvidenceEvents.Cited::ref).toList());
    EvidenceEvents.Cited failed = l.events().get(1);
    assertEquals("fail", failed.status());
    assertEquals("bad", failed.css());
    assertEquals("{\"slot\":2}", failed.args());
    assertEquals("IOException: refused 2", failed.error());
    assertEquals("s1", failed.session());
    assertEquals("t2", failed.turn());
    assertEquals("booked 1", l.events().get(0).result());
    assertEquals("2026-11-22 00:02:00.000", failed.ts());
  }

  @Test
  void theNewestAreListedOldestFirstAndLongValuesAreCut() throws Exception {
    List<WindowEvent> w = window(120);
    ObjectNode big = MAPPER.createObjectNode();
    big.putObject("args").put("text", "x".repeat(5_000));
    w.set(
        119,
        new WindowEvent(
            Event.of(T0.plusSeconds(60L * 120), "tool.book", "ok", big), 120, 120, false));
    StringBuilder refs = new StringBuilder();
    for (int i = 1; i <= 120; i++) {
      refs.append(i > 1 ? "," : "").append(i);
    }
    EvidenceEvents.Listing l = new EvidenceEvents(w).of(json("{\"refs\": [" + refs + "]}"));

    assertEquals(120, l.resolved());
    assertTrue(l.cut());
    assertEquals(EvidenceEvents.MAX_EVENTS, l.events().size());
    assertEquals(71L, l.events().get(0).ref());
    assertEquals(120L, l.events().get(EvidenceEvents.MAX_EVENTS - 1).ref());
    assertEquals(
        EvidenceEvents.MAX_VALUE_CHARS + 1,
        l.events().get(EvidenceEvents.MAX_EVENTS - 1).args().length());
  }
}
