package dev.vigil.diagnose.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.diagnose.detect.Findings;
import dev.vigil.diagnose.detect.WindowEvent;
import dev.vigil.observe.Event;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/**
 * A policy rule over 200,000 generated events in 4,000 sessions: every violation is counted, the
 * evidence keeps the newest 50 with the right total, a session's history holds only the kinds the
 * rule reads, and the open sessions and held events stay within their bounds. Events are made one
 * at a time and never held as a window.
 */
class PolicyAtScaleTest {
  private static final int SESSIONS = 4_000;
  private static final int PER_SESSION = 50;
  private static final Instant T0 = Instant.parse("2026-11-25T00:00:00Z");
  private static final PolicyRule RULE =
      new PolicyRule(
          "no_refund_after_shipping",
          "refund_order",
          "session.calls('tool.get_order').exists(c, c.status == 'ok' && c.payload.result.status == 'shipped')",
          0.9,
          "");

  /**
   * Each session: a look-up (the order shipped in even sessions, pending in odd ones), 48 searches
   * the rule does not read, then a refund: a violation in every even session.
   */
  private static void generate(boolean interleaved, Consumer<WindowEvent> out) {
    long n = 0;
    for (int a = 0; a < (interleaved ? PER_SESSION : SESSIONS); a++) {
      for (int b = 0; b < (interleaved ? SESSIONS : PER_SESSION); b++) {
        int s = interleaved ? b : a;
        int k = interleaved ? a : b;
        ObjectNode payload = JsonNodeFactory.instance.objectNode();
        String kind;
        if (k == 0) {
          kind = "tool.get_order";
          payload
              .put("tool", "get_order")
              .putObject("result")
              .put("status", s % 2 == 0 ? "shipped" : "pending");
        } else if (k == PER_SESSION - 1) {
          kind = "tool.refund_order";
          payload.put("tool", "refund_order").putObject("args").put("id", s);
        } else {
          kind = "tool.search";
          payload.put("tool", "search").putObject("args").put("q", "item " + k);
        }
        Event e =
            new Event(
                T0.plusMillis(n), kind, "ok", payload, "shop", n, 1L, "main", null, null, "s" + s);
        out.accept(new WindowEvent(e, n, n + 1, false));
        n++;
      }
    }
  }

  private static PolicyDetector detector(int maxSessions, int maxHeld) {
    return new PolicyDetector(
        RULE, PolicyEnvironment.compile(RULE.violation()), maxSessions, maxHeld);
  }

  @Test
  void everyViolationIsCountedAndAHistoryHoldsOnlyTheKindsTheRuleReads() {
    List<Event> derived = new ArrayList<>();
    PolicyDetector.PolicyScan scan =
        (PolicyDetector.PolicyScan)
            detector(PolicySessions.MAX_SESSIONS, PolicySessions.MAX_HELD)
                .scan(d -> derived.add(d.event()));
    long[] most = {0, 0};
    generate(
        true,
        w -> {
          scan.accept(w);
          most[0] = Math.max(most[0], scan.openSessions());
          most[1] = Math.max(most[1], scan.held());
        });
    Detection d = scan.finish();

    assertEquals(SESSIONS / 2, d.count());
    assertEquals(SESSIONS / 2, derived.size());
    assertEquals(SESSIONS, d.evidence().get("calls").asInt());
    assertEquals(0, d.evidence().get("errors").asInt());
    assertEquals(Findings.MAX_CITED, d.evidence().get("violations").size());
    assertEquals(SESSIONS / 2, d.evidence().get("violations_total").asInt());
    assertEquals(
        "s3998",
        d.evidence().get("violations").get(Findings.MAX_CITED - 1).get("session").asText());
    assertTrue(d.cited().size() <= Findings.MAX_CITED);
    assertEquals(SESSIONS, most[0]);
    assertEquals(SESSIONS, most[1], "one look-up per session; the 48 searches are not held");
    assertTrue(d.evidence().path("sessions_closed_early").isMissingNode());
  }

  @Test
  void aRuleThatReadsNoSessionKeepsNone() {
    PolicyRule override =
        new PolicyRule("no_override", "refund_order", "has(args.override)", 0.8, "");
    PolicyDetector.PolicyScan scan =
        (PolicyDetector.PolicyScan)
            new PolicyDetector(override, PolicyEnvironment.compile(override.violation()))
                .scan(d -> {});
    int[] most = {0};
    generate(
        true,
        w -> {
          scan.accept(w);
          most[0] = Math.max(most[0], scan.openSessions());
        });
    Detection d = scan.finish();
    assertEquals(0, most[0]);
    assertEquals(SESSIONS, d.evidence().get("calls").asInt());
    assertEquals(0, d.count());
  }

  @Test
  void atMostTheBoundOfSessionsIsOpen() {
    PolicyDetector.PolicyScan scan =
        (PolicyDetector.PolicyScan) detector(100, PolicySessions.MAX_HELD).scan(d -> {});
    int[] most = {0};
    generate(
        false,
        w -> {
          scan.accept(w);
          most[0] = Math.max(most[0], scan.openSessions());
        });
    Detection d = scan.finish();

    assertEquals(100, most[0]);
    assertEquals(SESSIONS / 2, d.count(), "a session closed after its last event loses nothing");
    assertEquals(SESSIONS - 100, d.evidence().get("sessions_closed_early").asInt());
  }

  @Test
  void pastTheHeldBudgetTheLeastRecentlyActiveSessionsAreClosed() {
    PolicyDetector.PolicyScan scan =
        (PolicyDetector.PolicyScan) detector(PolicySessions.MAX_SESSIONS, 50).scan(d -> {});
    long[] most = {0};
    generate(
        true,
        w -> {
          scan.accept(w);
          most[0] = Math.max(most[0], scan.held());
        });
    Detection d = scan.finish();

    assertEquals(50, most[0]);
    assertEquals(
        25, d.count(), "only the last 50 sessions kept their look-up; half of them shipped");
    assertEquals(SESSIONS - 50, d.evidence().get("sessions_closed_early").asInt());
  }
}
