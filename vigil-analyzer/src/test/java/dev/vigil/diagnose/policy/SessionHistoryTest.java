package dev.vigil.diagnose.policy;

import static dev.vigil.diagnose.policy.Shop.at;
import static dev.vigil.diagnose.policy.Shop.getOrder;
import static dev.vigil.diagnose.policy.Shop.refund;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.observe.EventJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a session's history keeps for a rule: the kinds its expression reads, the newest 100 of
 * each.
 */
class SessionHistoryTest {
  static Stream<Arguments> needs() {
    return Stream.of(
        Arguments.of(
            PolicyDetectorTest.SHIPPED,
            new HistoryNeeds(Set.of("tool.get_order"), Set.of(), false, false)),
        Arguments.of(
            "session.calls('tool.get_order').exists(c, c.status == 'ok')",
            new HistoryNeeds(Set.of(), Set.of("tool.get_order"), false, false)),
        Arguments.of(
            "session.last('tool.a') != null && size(session.calls('tool.a')) > 1 && "
                + "session.last('turn.answer') == null",
            new HistoryNeeds(Set.of("turn.answer"), Set.of("tool.a"), false, false)),
        Arguments.of(
            "!session.user_texts.exists(t, t.contains('refund'))",
            new HistoryNeeds(Set.of(), Set.of(), true, false)),
        Arguments.of("has(session.user_texts)", new HistoryNeeds(Set.of(), Set.of(), true, false)),
        Arguments.of("args.amount > 100", new HistoryNeeds(Set.of(), Set.of(), false, false)),
        Arguments.of(
            "session.last('tool.' + tool) != null",
            new HistoryNeeds(Set.of(), Set.of(), false, true)),
        Arguments.of("size(session) > 1", new HistoryNeeds(Set.of(), Set.of(), false, true)));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("needs")
  void aRuleKeepsWhatItsExpressionReads(String expression, HistoryNeeds expected) {
    assertEquals(expected, PolicyEnvironment.compile(expression).needs());
  }

  private static int count(String violation, List<String> lines) throws Exception {
    JsonNode rules = EventJson.mapper().readTree(Shop.policy("rule", "refund_order", violation));
    return Policies.parse(rules, "test").detectors().get(0).detect(Shop.window(lines)).count();
  }

  @Test
  void callsKeepsTheNewest100OfAKind() throws Exception {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 150; i++) {
      lines.add(at(i, "s1", "tool.get_order", "ok", "{\"args\":{\"id\":" + i + "}}"));
    }
    lines.add(refund(150, "s1"));
    assertEquals(
        1,
        count(
            "size(session.calls('tool.get_order')) == "
                + SessionHistory.MAX_KEPT
                + " && session.calls('tool.get_order')[0].payload.args.id == 50",
            lines));
  }

  @Test
  void userTextsKeepTheNewest100() throws Exception {
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < 120; i++) {
      lines.add(Shop.user(i, "s1", "message " + i));
    }
    lines.add(refund(120, "s1"));
    assertEquals(
        1,
        count("size(session.user_texts) == 100 && session.user_texts[0] == 'message 20'", lines));
  }

  @Test
  void aRuleWhoseKindsCannotBeToldSeesEveryKind() throws Exception {
    List<String> lines = List.of(getOrder(0, "s1", "shipped"), refund(1, "s1"));
    assertEquals(
        1, count("session.last('tool.' + 'get_order').payload.result.status == 'shipped'", lines));
  }
}
