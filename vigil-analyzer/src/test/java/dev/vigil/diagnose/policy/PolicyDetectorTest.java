package dev.vigil.diagnose.policy;

import static dev.vigil.diagnose.policy.Shop.at;
import static dev.vigil.diagnose.policy.Shop.getOrder;
import static dev.vigil.diagnose.policy.Shop.on;
import static dev.vigil.diagnose.policy.Shop.refund;
import static dev.vigil.diagnose.policy.Shop.user;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.diagnose.detect.Derived;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.diagnose.detect.WindowEvent;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventJson;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PolicyDetectorTest {
  /** The shop example of docs/POLICIES.md. */
  static final String SHIPPED = "session.last('tool.get_order').payload.result.status == 'shipped'";

  private static Detection detect(String tool, String violation, List<String> lines)
      throws Exception {
    JsonNode rules = EventJson.mapper().readTree(Shop.policy("rule", tool, violation));
    return Policies.parse(rules, "test").detectors().get(0).detect(Shop.window(lines));
  }

  private static List<Long> violationRefs(Detection d) {
    List<Long> refs = new ArrayList<>();
    d.evidence().get("violations").forEach(v -> refs.add(v.get("ref").asLong()));
    return refs;
  }

  static Stream<Arguments> cases() {
    return Stream.of(
        Arguments.of(
            "the shop example fires once: a refund after the order shipped, not after a pending one",
            "refund_order",
            SHIPPED,
            List.of(
                user(0, "s1", "refund order 7"),
                getOrder(1, "s1", "shipped"),
                refund(2, "s1"),
                user(3, "s2", "refund order 7"),
                getOrder(4, "s2", "pending"),
                refund(5, "s2")),
            List.of(3L),
            0),
        Arguments.of(
            "a pending order does not fire",
            "refund_order",
            SHIPPED,
            List.of(getOrder(0, "s1", "pending"), refund(1, "s1")),
            List.of(),
            0),
        Arguments.of(
            "the latest earlier look-up counts",
            "refund_order",
            SHIPPED,
            List.of(
                getOrder(0, "s1", "pending"),
                refund(1, "s1"),
                getOrder(2, "s1", "shipped"),
                refund(3, "s1")),
            List.of(4L),
            0),
        Arguments.of(
            "session holds only the same session: another session's look-up is not seen (null: an error)",
            "refund_order",
            SHIPPED,
            List.of(getOrder(0, "s1", "shipped"), refund(1, "s2")),
            List.of(),
            1),
        Arguments.of(
            "session holds only earlier events: a later look-up is not seen",
            "refund_order",
            SHIPPED,
            List.of(refund(0, "s1"), getOrder(1, "s1", "shipped")),
            List.of(),
            1),
        Arguments.of(
            "a missing field is counted and the pass goes on to the next call",
            "refund_order",
            SHIPPED,
            List.of(refund(0, "s1"), getOrder(1, "s2", "shipped"), refund(2, "s2")),
            List.of(3L),
            1),
        Arguments.of(
            "a rule by the tool's name (payload.tool)",
            "refundOrder",
            SHIPPED,
            List.of(getOrder(0, "s1", "shipped"), refund(1, "s1")),
            List.of(2L),
            0),
        Arguments.of(
            "a rule by the kind's last segment, on a call that names no tool",
            "refund_order",
            SHIPPED,
            List.of(
                getOrder(0, "s1", "shipped"),
                at(1, "s1", "tool.refund_order", "ok", "{\"args\":{}}")),
            List.of(2L),
            0),
        Arguments.of(
            "a rule watches only its tool",
            "cancel_order",
            "true",
            List.of(getOrder(0, "s1", "shipped"), refund(1, "s1")),
            List.of(),
            0),
        Arguments.of(
            "a result recorded as JSON text reads as JSON",
            "refund_order",
            SHIPPED,
            List.of(
                at(
                    0,
                    "s1",
                    "tool.get_order",
                    "ok",
                    "{\"result\":\"{\\\"status\\\":\\\"shipped\\\"}\"}"),
                refund(1, "s1")),
            List.of(2L),
            0),
        Arguments.of(
            "user_texts: a refund the user never asked for",
            "refund_order",
            "!session.user_texts.exists(t, t.contains('refund'))",
            List.of(
                user(0, "s1", "where is my order?"),
                refund(1, "s1"),
                user(2, "s2", "please refund order 7"),
                refund(3, "s2")),
            List.of(2L),
            0),
        Arguments.of(
            "args, status, tool and standard functions",
            "refund_order",
            "status == 'ok' && double(args.amount) > 100.0 && tool.endsWith('Order') && args.id.matches('^[0-9]+$')"
                + " && string(int(args.id)) == '7' && size(args) == 2 && has(args.amount) && !has(args.reason)",
            List.of(refund(0, "s1")),
            List.of(1L),
            0),
        Arguments.of(
            "numbers compare across int and double",
            "refund_order",
            "args.amount > 100.5",
            List.of(refund(0, "s1")),
            List.of(1L),
            0),
        Arguments.of(
            "session.calls: the second refund of a session",
            "refund_order",
            "session.calls('tool.refund_order').size() >= 1 && "
                + "session.calls('tool.get_order').all(c, c.status == 'ok' && c.kind == 'tool.get_order')",
            List.of(
                getOrder(0, "s1", "pending"), refund(1, "s1"), refund(2, "s1"), refund(3, "s2")),
            List.of(3L),
            0),
        Arguments.of(
            "map and filter macros over a session",
            "refund_order",
            "session.calls('tool.get_order').map(c, c.payload.result.status).filter(s, s == 'shipped').size() > 0",
            List.of(getOrder(0, "s1", "shipped"), getOrder(1, "s1", "pending"), refund(2, "s1")),
            List.of(3L),
            0),
        Arguments.of(
            "an expression that gives no bool on a call is an error",
            "refund_order",
            "args.amount",
            List.of(refund(0, "s1")),
            List.of(),
            1),
        Arguments.of(
            "events without a session are grouped by agent",
            "refund_order",
            SHIPPED,
            List.of(
                on("a", 0, null, "tool.get_order", "ok", "{\"result\":{\"status\":\"shipped\"}}"),
                on("b", 1, null, "tool.refund_order", "ok", "{}"),
                on("a", 2, null, "tool.refund_order", "ok", "{}")),
            List.of(3L),
            1),
        Arguments.of(
            "the user's and the agent's messages are no calls",
            "user",
            "true",
            List.of(user(0, "s1", "hello")),
            List.of(),
            0));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void judgesEachCallOfItsToolOnItsOwnSessionBeforeIt(
      String name,
      String tool,
      String violation,
      List<String> lines,
      List<Long> violations,
      int errors)
      throws Exception {
    Detection d = detect(tool, violation, lines);
    assertEquals(violations, violationRefs(d), d.evidence().toString());
    assertEquals(violations.size(), d.count());
    assertEquals(errors, d.evidence().get("errors").asInt(), d.evidence().toString());
  }

  @Test
  void aViolationIsDerivedAsPolicyNameFailWithItsSeverityAndTheCallsIdentity() throws Exception {
    List<String> lines =
        List.of(user(0, "s1", "refund order 7"), getOrder(1, "s1", "shipped"), refund(2, "s1"));
    Detection d = detect("refund_order", SHIPPED, lines);
    assertEquals("policy.rule", d.name());
    assertEquals(
        "{\"tool\":\"refund_order\",\"violation\":\""
            + SHIPPED
            + "\",\"severity\":0.6,\"calls\":1,"
            + "\"errors\":0,\"violations\":[{\"ref\":3,\"session\":\"s1\",\"turn\":\"t-0\"}],\"violations_total\":1}",
        d.evidence().toString());
    assertEquals("1 of 1 calls of refund_order broke policy rule", d.summary());
    Derived derived = d.derived().get(0);
    WindowEvent call = Shop.window(lines).get(2);
    assertEquals(call.identity(), derived.sourceIdentity());
    Event e = derived.event();
    assertEquals("policy.rule", e.kind());
    assertEquals("fail", e.status());
    assertEquals(call.event().ts(), e.ts());
    assertEquals("shop", e.agent());
    assertEquals("s1", e.session());
    assertEquals("t-0", e.turn());
    assertEquals(
        "{\"policy\":\"rule\",\"tool\":\"refundOrder\",\"severity\":0.6,\"violation\":\""
            + SHIPPED
            + "\"}",
        e.payload().toString());
  }

  @Test
  void errorsAreCountedWithTheFirstMessagesAndTheirCalls() throws Exception {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      lines.add(refund(i, "s" + i));
    }
    Detection d = detect("refund_order", SHIPPED, lines);
    assertEquals(0, d.count());
    assertEquals("", d.summary());
    assertEquals(5, d.evidence().get("errors").asInt());
    JsonNode examples = d.evidence().get("error_examples");
    assertEquals(PolicyDetector.ERROR_EXAMPLES, examples.size());
    assertEquals(1, examples.get(0).get("ref").asInt());
    assertEquals(
        "Error resolving field 'payload'. Field selections must be performed on messages or maps. "
            + "(at character 31 of the expression)",
        examples.get(0).get("message").asText());
  }

  @Test
  void theDetectorKeepsNoStateBetweenWindows() throws Exception {
    JsonNode rules = EventJson.mapper().readTree(Shop.policy("rule", "refund_order", SHIPPED));
    var detector = Policies.parse(rules, "test").detectors().get(0);
    List<WindowEvent> window = Shop.window(List.of(getOrder(0, "s1", "shipped"), refund(1, "s1")));
    assertEquals(1, detector.detect(window).count());
    assertEquals(1, detector.detect(window).count());
    assertEquals(0, detector.detect(Shop.window(List.of(refund(1, "s1")))).count());
  }
}
