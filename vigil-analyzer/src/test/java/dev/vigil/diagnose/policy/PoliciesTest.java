package dev.vigil.diagnose.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.observe.EventJson;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PoliciesTest {
  private static Policies parse(String json) throws Exception {
    return Policies.parse(EventJson.mapper().readTree(json), "rules file r.json");
  }

  private static String refused(String json) {
    return assertThrows(IllegalArgumentException.class, () -> parse(json)).getMessage();
  }

  @Test
  void noPoliciesSectionMeansNone() throws Exception {
    assertTrue(parse("{}").isEmpty());
    assertEquals(List.of(), parse("{\"policies\":[]}").detectors());
  }

  @Test
  void eachRuleIsOneDetectorNamedPolicyDotName() throws Exception {
    Policies p =
        parse(
            "{\"policies\":[{\"name\":\"no_refund_after_shipping\",\"tool\":\"refund_order\","
                + "\"violation\":\""
                + PolicyDetectorTest.SHIPPED
                + "\",\"severity\":0.9},"
                + "{\"name\":\"big_refund\",\"tool\":\"refund_order\",\"violation\":\"args.amount > 500\","
                + "\"description\":\"refunds over 500 need a manager\",\"_note\":\"ignored\"}]}");
    assertEquals(
        List.of("policy.no_refund_after_shipping", "policy.big_refund"),
        p.detectors().stream().map(d -> d.name()).toList());
    assertEquals(
        new PolicyRule(
            "big_refund",
            "refund_order",
            "args.amount > 500",
            Policies.DEFAULT_SEVERITY,
            "refunds over 500 need a manager"),
        p.rules().get(1));
  }

  @Test
  void aSyntaxErrorNamesTheRuleAndTheColumn() {
    String m =
        refused(
            "{\"policies\":[{\"name\":\"ok_rule\",\"tool\":\"t\",\"violation\":\"true\"},"
                + "{\"name\":\"broken\",\"tool\":\"refund_order\",\"violation\":\"args.amount >\"}]}");
    assertTrue(
        m.startsWith(
            "rules file r.json: policy 2 (broken): \"violation\" does not compile at column 14: "
                + "mismatched input '<EOF>'"),
        m);
    assertTrue(m.endsWith(" | args.amount >\n | .............^"), m);
  }

  @Test
  void aRuleOnTwoLinesGivesLineAndColumn() {
    String m =
        refused(
            "{\"policies\":[{\"name\":\"two_lines\",\"tool\":\"t\",\"violation\":\"true &&\\n  )\"}]}");
    assertTrue(
        m.contains("policy 1 (two_lines): \"violation\" does not compile at line 2, column 3: "),
        m);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "size(args) | expected type 'bool' but found 'int'",
        "session.first('tool.x') != null | undeclared reference to 'first'",
        "order.status == 'shipped' | undeclared reference to 'order'",
        "status == 1 | found no matching overload for '_==_'"
      })
  void aRuleThatDoesNotTypeCheckIsRefused(String violation, String reason) {
    String m =
        refused(
            "{\"policies\":[{\"name\":\"bad\",\"tool\":\"t\",\"violation\":\""
                + violation
                + "\"}]}");
    assertTrue(
        m.startsWith(
            "rules file r.json: policy 1 (bad): \"violation\" does not compile at column "),
        m);
    assertTrue(m.contains(reason), m);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "args.amount > 500 && !session.user_texts.exists(t, t.contains('manager'))",
        "session.calls('tool.cancel_booking').size() >= 1",
        "status == 'ok' && !session.calls('tool.get_order').exists(c, c.payload.args.id == args.id)",
        "args.email.matches('^[^@]+@example[.]com$') == false",
        "session.last('tool.get_order') != null && session.last('tool.get_order').payload.result.status == 'shipped'"
      })
  void theDocumentedExamplesCompile(String violation) throws Exception {
    Policies p =
        parse(
            "{\"policies\":[{\"name\":\"doc\",\"tool\":\"t\",\"violation\":\""
                + violation
                + "\"}]}");
    assertEquals(violation, p.rules().get(0).violation());
  }

  @ParameterizedTest(name = "{1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "{\"policies\":{}} | \"policies\" must be an array of rules",
        "{\"policies\":[\"x\"]} | policy 1 must be an object with name, tool and violation",
        "{\"policies\":[{\"tool\":\"t\",\"violation\":\"true\"}]} | policy 1: \"name\" must be lower-case letters",
        "{\"policies\":[{\"name\":\"No Refund\",\"tool\":\"t\",\"violation\":\"true\"}]} | \"name\" must be lower-case",
        "{\"policies\":[{\"name\":\"a\",\"violation\":\"true\"}]} | policy 1 (a): \"tool\" must be a non-empty string",
        "{\"policies\":[{\"name\":\"a\",\"tool\":\"t\"}]} | policy 1 (a): \"violation\" must be a non-empty string",
        "{\"policies\":[{\"name\":\"a\",\"tool\":\"t\",\"violation\":\"true\",\"severity\":1.5}]} "
            + "| \"severity\" must be a number from 0 to 1",
        "{\"policies\":[{\"name\":\"a\",\"tool\":\"t\",\"when\":\"true\"}]} | policy 1 (a): unknown field \"when\"",
        "{\"policies\":[{\"name\":\"a\",\"tool\":\"t\",\"violation\":\"true\"},"
            + "{\"name\":\"a\",\"tool\":\"u\",\"violation\":\"true\"}]} "
            + "| policy 2 (a): another policy is already named \"a\""
      })
  void aMalformedRuleIsRefusedNamingIt(String json, String reason) {
    String m = refused(json);
    assertTrue(m.startsWith("rules file r.json: "), m);
    assertTrue(m.contains(reason), m);
  }
}
