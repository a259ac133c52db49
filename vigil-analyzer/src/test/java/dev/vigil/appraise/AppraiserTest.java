package dev.vigil.appraise;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventJson;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class AppraiserTest {
  private static final Instant T = Instant.parse("2026-11-22T10:00:00Z");

  private static Appraiser appraiser() {
    return AppraisalRules.defaults().newAppraiser();
  }

  private static Event event(String kind, String status, String payloadJson) throws Exception {
    ObjectNode payload = (ObjectNode) EventJson.mapper().readTree(payloadJson);
    return Event.of(T, kind, status, payload);
  }

  @ParameterizedTest(name = "{0} {1} {2} -> {3} {4} {5}")
  @CsvSource(
      delimiter = '|',
      value = {
        // the table of docs/DESIGN.md#appraisal, row by row
        "tool.x | fail | {} | frustration | -0.7 | 0.9",
        "tool.x | timeout | {} | frustration | -0.7 | 0.9",
        "tool.x | error | {} | frustration | -0.7 | 0.9",
        "api.error | ok | {} | frustration | -0.7 | 0.9",
        "tool.x | complaint | {} | frustration | -0.7 | 0.8",
        "reminder.toast | delay | {\"delayed_by_sec\": 300} | anxiety | -0.6 | 0.5",
        "reminder.toast | delay | {} | anxiety | -0.6 | 0.3",
        "toast.delayed | ok | {} | anxiety | -0.6 | 0.3",
        "tool.x | ok | {\"improvement_pct\": 25} | pride | 0.85 | 0.6",
        "tool.x | success | {\"saved_ms\": 1000} | pride | 0.85 | 0.6",
        "tool.x | completed | {\"latency_ms\": 50, \"baseline_ms\": 100} | pride | 0.85 | 0.9",
        "tool.x | resolved | {} | relief | 0.6 | 0.3",
        "tool.x | delivered | {} | relief | 0.6 | 0.3",
        "tool.x | queued | {} | curiosity | 0.4 | 0.3",
        // tool roles (docs/DETECTORS.md#tool-roles): a successful look-up is curiosity, never
        // relief or pride
        "tool.get_order | ok | {} | curiosity | 0.4 | 0.3",
        "tool.searchFlights | ok | {\"saved_ms\": 1000} | curiosity | 0.4 | 0.3",
        "step | ok | {\"tool\": \"listReminders\"} | curiosity | 0.4 | 0.3",
        "tool.get_order | fail | {} | frustration | -0.7 | 0.9",
        "tool.cancel_order | ok | {} | relief | 0.6 | 0.3",
        "tool.checkout | ok | {} | relief | 0.6 | 0.3",
        "tool.cancel_order.unconfirmed | unconfirmed | {} | anxiety | -0.6 | 0.5",
        // the four repaired faults of the reference implementation
        "support.ticket | complaint | {} | frustration | -0.7 | 0.8",
        "tool.x | error | {\"improvement_pct\": 40} | frustration | -0.7 | 0.9",
        "tool.x | ok | {\"improvement_pct\": 0} | relief | 0.6 | 0.3",
        "tool.x | ok | {\"improvement_pct\": -10} | relief | 0.6 | 0.3",
        // uplift and delay boundaries, clamping, pride floor
        "tool.x | ok | {\"improvement_pct\": 50} | pride | 0.85 | 0.9",
        "tool.x | ok | {\"improvement_pct\": 500} | pride | 0.85 | 0.9",
        "tool.x | ok | {\"improvement_pct\": 5} | pride | 0.85 | 0.5",
        "tool.x | ok | {\"saved_ms\": 2000} | pride | 0.85 | 0.9",
        "tool.x | ok | {\"saved_ms\": 9000} | pride | 0.85 | 0.9",
        "tool.x | ok | {\"improvement_pct\": -5, \"saved_ms\": 1000} | pride | 0.85 | 0.6",
        "tool.x | ok | {\"latency_ms\": 150, \"baseline_ms\": 100} | relief | 0.6 | 0.3",
        "tool.x | ok | {\"latency_ms\": 50, \"baseline_ms\": 0} | relief | 0.6 | 0.3",
        "tool.x | delay | {\"delayed_by_sec\": 600} | anxiety | -0.6 | 0.95",
        "tool.x | delay | {\"delayed_by_sec\": 6000} | anxiety | -0.6 | 0.95",
        "tool.x | delay | {\"delayed_by_sec\": 60} | anxiety | -0.6 | 0.2",
        "tool.x | delay | {\"delayed_by_sec\": -60} | anxiety | -0.6 | 0.2",
        "tool.x | delay | {\"delayed_by_sec\": 420} | anxiety | -0.6 | 0.7",
        "tool.x | fail | {\"delayed_by_sec\": 570} | frustration | -0.7 | 0.95",
        "tool.x | fail | {\"delayed_by_sec\": 30} | frustration | -0.7 | 0.9",
        "Tool.X | FAIL | {} | frustration | -0.7 | 0.9",
        // a policy rule's violation (docs/POLICIES.md): its severity is the intensity; only policy
        // events read it
        "policy.no_refund_after_shipping | fail | {\"severity\": 0.6} | frustration | -0.7 | 0.6",
        "policy.no_refund_after_shipping | fail | {\"severity\": 1.0} | frustration | -0.7 | 0.95",
        "policy.no_refund_after_shipping | fail | {\"severity\": 0.0} | frustration | -0.7 | 0.2",
        "policy.no_refund_after_shipping | fail | {} | frustration | -0.7 | 0.9",
        "tool.x | fail | {\"severity\": 0.3} | frustration | -0.7 | 0.9",
        "tool.x | ok | {\"severity\": 0.3} | relief | 0.6 | 0.3"
      })
  void appraisesEachRowOfTheTable(
      String kind, String status, String payload, String emotion, double valence, double intensity)
      throws Exception {
    Appraisal a = appraiser().appraise(event(kind, status, payload));
    assertEquals(emotion, a.emotion());
    assertEquals(valence, a.valence(), 1e-12);
    assertEquals(intensity, a.intensity(), 1e-12);
    assertEquals(kind + ":" + status, a.cause());
  }

  @Test
  void laterOkEarnsNoMoreReliefThanTheFirst() throws Exception {
    Appraiser appraiser = appraiser();
    double first = appraiser.appraise(event("tool.x", "ok", "{}")).intensity();
    for (int i = 0; i < 5; i++) {
      assertEquals(first, appraiser.appraise(event("tool.x", "ok", "{}")).intensity());
    }
  }

  @Test
  void nonNumericDelayIsIgnoredAndCounted() throws Exception {
    Appraiser appraiser = appraiser();
    Appraisal a = appraiser.appraise(event("tool.x", "delay", "{\"delayed_by_sec\": \"late\"}"));
    assertEquals("anxiety", a.emotion());
    assertEquals(0.3, a.intensity(), 1e-12);
    assertEquals(1, appraiser.badDelayValues());
  }

  @Test
  void conversationEventsAreContextAndToolRolesCanBeNamedPerTool() throws Exception {
    assertEquals(true, Appraiser.isContext(event("turn.user", "ok", "{\"text\": \"hi\"}")));
    assertEquals(false, Appraiser.isContext(event("tool.get_order", "ok", "{}")));
    AppraisalRules rules =
        AppraisalRules.parse(
            EventJson.mapper()
                .readTree(
                    BuiltInRules.json()
                        .toString()
                        .replaceFirst(
                            "\\{",
                            "{\"tool_roles\":{\"tools\":{\"get_order\":\"write\"},"
                                + "\"read_verbs\":[\"peek\"]},")),
            "test rules");
    Appraiser a = rules.newAppraiser();
    assertEquals("relief", a.appraise(event("tool.get_order", "ok", "{}")).emotion());
    assertEquals("curiosity", a.appraise(event("tool.peek_stock", "ok", "{}")).emotion());
    assertEquals("relief", a.appraise(event("tool.search_stock", "ok", "{}")).emotion());
  }
}
