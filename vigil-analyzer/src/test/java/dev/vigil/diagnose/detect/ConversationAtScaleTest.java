package dev.vigil.diagnose.detect;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.dialogue.Conversation;
import dev.vigil.observe.Event;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * The conversation detectors over about 200,000 generated events in 3,031 sessions: every instance
 * is counted, the evidence keeps the newest 50 with the right total, and the open sessions stay
 * within their bound. Events are made one at a time and never held as a window.
 */
class ConversationAtScaleTest {
  private static final int SESSIONS = 3_031;
  private static final int TURNS = 20;
  private static final Instant T0 = Instant.parse("2026-11-25T00:00:00Z");
  private static final List<String> DIALOGUE =
      List.of(
          UnconfirmedWrite.NAME,
          ClaimWithoutAction.NAME,
          UserCorrection.NAME,
          WriteAfterRefusal.NAME);

  /**
   * Per session and ten turns: 9 unconfirmed writes (every turn's write but the confirmed one (3)
   * and the one after an answer that asked nothing (5), plus the forced refund (8)), 1 claim (4), 2
   * corrections (5 says so, 7 repeats 6), 1 write after refusal (8).
   */
  private static final Map<String, Integer> PER_SESSION =
      Map.of(
          UnconfirmedWrite.NAME,
          18,
          ClaimWithoutAction.NAME,
          2,
          UserCorrection.NAME,
          4,
          WriteAfterRefusal.NAME,
          2);

  /**
   * Feeds the generated events, turn by turn across every session (interleaved) or session after
   * session.
   */
  private static final class Generator {
    private long n;

    long events() {
      return n;
    }

    void interleaved(Consumer<WindowEvent> out) {
      for (int j = 0; j < TURNS; j++) {
        for (int s = 0; s < SESSIONS; s++) {
          turn(s, j, out);
        }
      }
    }

    void sessionAfterSession(Consumer<WindowEvent> out) {
      for (int s = 0; s < SESSIONS; s++) {
        for (int j = 0; j < TURNS; j++) {
          turn(s, j, out);
        }
      }
    }

    private void turn(int s, int j, Consumer<WindowEvent> out) {
      String session = "s" + s;
      String turn = session + "-t" + j;
      String text =
          switch (j % 10) {
            case 3 -> "yes go ahead " + code(s, j);
            case 5 -> "that's wrong, fix " + code(s, j);
            case 7 -> "look after " + code(s, j - 1);
            default -> "look after " + code(s, j);
          };
      out.accept(event(session, turn, "turn.user", "ok", o().put("text", text)));
      out.accept(
          event(session, turn, "tool.cancel_order", "ok", call("cancel_order", s + "-" + j)));
      if (j % 10 == 8) {
        out.accept(event(session, turn, "tool.refund_order", "fail", call("refund_order", "1")));
        out.accept(event(session, turn, "tool.refund_order", "fail", call("refund_order", "2")));
        out.accept(event(session, turn, "tool.refund_order", "ok", call("refund_order", "3")));
      }
      String answer =
          j % 10 == 4 ? "Your order has been refunded." : "Order cancelled. Anything else?";
      out.accept(event(session, turn, "turn.answer", "ok", o().put("text", answer)));
    }

    private WindowEvent event(
        String session, String turn, String kind, String status, ObjectNode payload) {
      long i = n++;
      Event e =
          new Event(
              T0.plusMillis(i), kind, status, payload, "shop", i, 1L, "main", turn, null, session);
      return new WindowEvent(e, i, i + 1, false);
    }

    private static ObjectNode call(String tool, String id) {
      ObjectNode c = o().put("tool", tool);
      c.putObject("args").put("id", id);
      return c;
    }

    private static ObjectNode o() {
      return JsonNodeFactory.instance.objectNode();
    }

    /** Two words of letters only, unique to the session and turn. */
    private static String code(int s, int j) {
      return "zq" + letters(s) + " zw" + letters(j);
    }

    private static String letters(int v) {
      StringBuilder sb = new StringBuilder();
      int x = v;
      do {
        sb.append((char) ('a' + x % 26));
        x /= 26;
      } while (x > 0);
      return sb.toString();
    }
  }

  @Test
  void everyInstanceIsCountedAndTheEvidenceKeepsTheNewest50WithTheirTotal() {
    Map<String, Integer> derivedByKind = new HashMap<>();
    DetectorScans scans =
        Detectors.of(DIALOGUE, DetectorSettings.DEFAULTS)
            .start((name, d) -> derivedByKind.merge(kindFamily(d.event().kind()), 1, Integer::sum));
    Generator g = new Generator();
    g.interleaved(scans::accept);
    List<Detection> found = scans.finish();

    assertTrue(g.events() >= 200_000, "events: " + g.events());
    assertEquals(DIALOGUE, found.stream().map(Detection::name).toList());
    for (Detection d : found) {
      int expected = PER_SESSION.get(d.name()) * SESSIONS;
      assertEquals(expected, d.count(), d.name());
      assertEquals(Findings.MAX_CITED, d.evidence().get("instances").size(), d.name());
      assertEquals(expected, d.evidence().get("instances_total").asInt(), d.name());
      assertTrue(d.cited().size() <= Findings.MAX_CITED, d.name() + " cites " + d.cited().size());
      assertTrue(d.derived().isEmpty(), "a pass's detections list no derived events");
      assertTrue(
          d.evidence().path("sessions_closed_early").isMissingNode(), d.evidence().toString());
    }
    assertEquals(
        Map.of(
            "unconfirmed",
            18 * SESSIONS,
            "turn.claim_without_action",
            2 * SESSIONS,
            "turn.user_correction",
            4 * SESSIONS,
            "after_refusal",
            2 * SESSIONS),
        derivedByKind);
  }

  @Test
  void atMostTheBoundOfSessionsIsOpenAndTheLeastRecentlyActiveIsClosedFirst() {
    int bound = 100;
    Conversation<WindowEvent> dialogue = new Conversation<>(bound);
    List<Integer> counts = new ArrayList<>();
    List<Scan> scans = new ArrayList<>();
    for (String name : DIALOGUE) {
      scans.add(dialogue(name).scanIn(dialogue, x -> {}));
    }
    int[] most = {0};
    Generator g = new Generator();
    g.sessionAfterSession(
        w -> {
          dialogue.accept(w);
          most[0] = Math.max(most[0], dialogue.openSessions());
        });
    scans.forEach(s -> counts.add(s.finish().count()));

    assertEquals(bound, most[0]);
    assertEquals(SESSIONS - bound, dialogue.closedEarly());
    assertEquals(0, dialogue.openSessions(), "finish closes every session");
    for (int i = 0; i < DIALOGUE.size(); i++) {
      assertEquals(
          PER_SESSION.get(DIALOGUE.get(i)) * SESSIONS,
          counts.get(i),
          DIALOGUE.get(i) + ": a session closed after its last event loses nothing");
    }
  }

  @Test
  void aSessionClosedEarlyBeginsAnewWithNoEarlierTurns() {
    List<String> lines =
        new ArrayList<>(
            Dialogue.session("a")
                .user("status of order 7")
                .ok("get_order")
                .answer("Order 7 is pending.")
                .user("cancel it")
                .ok("cancel_order")
                .answer("Done.")
                .lines());
    lines.add(
        "{\"ts\":\"2026-11-22T12:00:02.500Z\",\"kind\":\"turn.user\",\"status\":\"ok\","
            + "\"payload\":{\"text\":\"hello\"},\"session\":\"b\",\"turn\":\"b-t1\"}");
    List<WindowEvent> window = Logs.window(lines);
    assertEquals(
        0,
        new UnconfirmedWrite(DetectorSettings.DEFAULTS).detect(window).count(),
        "the answer before did not ask");
    Conversation<WindowEvent> one = new Conversation<>(1);
    Scan scan = new UnconfirmedWrite(DetectorSettings.DEFAULTS).scanIn(one, x -> {});
    window.forEach(one::accept);
    Detection d = scan.finish();
    assertEquals(
        1,
        d.count(),
        "closed when b began, a's second turn has no earlier answer: " + d.evidence());
    assertEquals(2, d.evidence().get("sessions_closed_early").asInt());
    assertEquals("no earlier answer", d.evidence().at("/instances/0/asked").asText());
  }

  private static DialogueDetector dialogue(String name) {
    DetectorSettings s = DetectorSettings.DEFAULTS;
    return switch (name) {
      case UnconfirmedWrite.NAME -> new UnconfirmedWrite(s);
      case ClaimWithoutAction.NAME -> new ClaimWithoutAction(s);
      case UserCorrection.NAME -> new UserCorrection(s);
      default -> new WriteAfterRefusal(s);
    };
  }

  private static String kindFamily(String kind) {
    if (kind.endsWith(".unconfirmed")) {
      return "unconfirmed";
    }
    return kind.endsWith(".after_refusal") ? "after_refusal" : kind;
  }
}
