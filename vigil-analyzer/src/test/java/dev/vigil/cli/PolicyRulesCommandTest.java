package dev.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Policy rules through the CLI (docs/POLICIES.md): a rules file with only {@code policies}, run
 * in-process.
 */
class PolicyRulesCommandTest {
  private static final String NOW = "2026-11-22T13:00:00Z";
  private static final String SHIPPED =
      "session.last('tool.get_order').payload.result.status == 'shipped'";
  private static final String POLICY = "policy.no_refund_after_shipping";

  @TempDir Path tmp;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    out.reset();
    err.reset();
    return Main.run(
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        args);
  }

  private int pass(Path events, Path rules, String bank, String... more) {
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "run",
                "--events",
                events.toString(),
                "--rules",
                rules.toString(),
                "--emobank",
                tmp.resolve(bank).toString(),
                "--out",
                tmp.resolve("out").toString(),
                "--now",
                NOW));
    args.addAll(List.of(more));
    return run(args.toArray(String[]::new));
  }

  private JsonNode report() throws IOException {
    return new ObjectMapper().readTree(tmp.resolve("out/report.json").toFile());
  }

  private static JsonNode detector(JsonNode report, String name) {
    for (JsonNode d : report.get("detectors")) {
      if (d.get("name").asText().equals(name)) {
        return d;
      }
    }
    throw new AssertionError("no detector " + name + " in " + report.get("detectors"));
  }

  private static String line(int second, String session, String kind, String payload) {
    return String.format(
        "{\"ts\":\"2026-11-22T12:00:%02dZ\",\"kind\":\"%s\",\"status\":\"ok\",\"agent\":\"shop\","
            + "\"session\":\"%s\",\"payload\":%s}%n",
        second, kind, session, payload);
  }

  private static String getOrder(int second, String session, String status) {
    return line(
        second,
        session,
        "tool.get_order",
        "{\"tool\":\"getOrder\",\"args\":{\"order\":\"7\"},"
            + "\"result\":{\"status\":\""
            + status
            + "\"}}");
  }

  private static String refund(int second, String session) {
    return line(
        second,
        session,
        "tool.refund_order",
        "{\"tool\":\"refundOrder\",\"args\":{\"order\":\"7\"}," + "\"result\":\"refunded\"}");
  }

  private Path events(String name, String... lines) throws IOException {
    return Files.writeString(tmp.resolve(name), String.join("", lines));
  }

  private Path rules(String violation) throws IOException {
    return Files.writeString(
        tmp.resolve("rules.json"),
        "{\"policies\":[{\"name\":\"no_refund_after_shipping\","
            + "\"tool\":\"refund_order\",\"violation\":\""
            + violation
            + "\",\"severity\":0.6}]}");
  }

  private Path shop() throws IOException {
    return events(
        "shop.jsonl",
        line(0, "s1", "turn.user", "{\"text\":\"refund order 7\"}"),
        getOrder(1, "s1", "shipped"),
        refund(2, "s1"),
        line(3, "s2", "turn.user", "{\"text\":\"refund order 7\"}"),
        getOrder(4, "s2", "pending"),
        refund(5, "s2"));
  }

  @Test
  void aFileWithOnlyPoliciesKeepsTheBuiltInRulesAndTheShopExampleFiresOnceDepositedOnce()
      throws Exception {
    Path events = shop();
    Path rules = rules(SHIPPED);
    assertEquals(0, pass(events, rules, "bank"), err.toString(StandardCharsets.UTF_8));
    JsonNode r = report();
    assertEquals(
        List.of(
            "premature_success",
            "latency",
            "timestamp_inconsistent",
            "tool_call_explosion",
            "failure_plateau",
            "unconfirmed_write",
            "claim_without_action",
            "user_correction",
            "write_after_refusal",
            POLICY),
        r.get("detectors").findValuesAsText("name"));
    JsonNode policy = detector(r, POLICY);
    assertEquals(1, policy.get("count").asInt(), policy.toString());
    assertEquals(0, policy.at("/evidence/errors").asInt());
    assertEquals(
        3,
        policy.at("/evidence/violations/0/ref").asInt(),
        "the line of the refund after shipping");
    // the violation, and each session's refund made in its first turn without a confirmation
    // (unconfirmed_write)
    assertEquals(3, r.get("derived_events_deposited").asInt());
    assertEquals(2, detector(r, "unconfirmed_write").get("count").asInt());
    assertTrue(
        out.toString(StandardCharsets.UTF_8)
            .contains(
                "detector "
                    + POLICY
                    + ": 1 of 2 calls of refund_order broke policy "
                    + "no_refund_after_shipping"),
        out.toString(StandardCharsets.UTF_8));
    assertTrue(
        r.at("/rbt/top_thorns").findValuesAsText("cause").contains(POLICY + ":fail"), r.toString());
    String advice = r.at("/rbt/prompt_rules_to_add").toString();
    assertTrue(
        advice.contains(
            "check the user's policy for that tool and do not make a call that breaks it: tell "
                + "the user why instead. Evidence: 1 of 2 calls of refund_order broke policy no_refund_after_shipping."),
        advice);
    assertTrue(!advice.contains("Retry"), "a violation is no failure to retry: " + advice);

    List<String> rows = Files.readAllLines(tmp.resolve("bank/emotions.jsonl"));
    List<JsonNode> violations =
        rows.stream()
            .map(PolicyRulesCommandTest::json)
            .filter(row -> row.get("cause").asText().equals(POLICY + ":fail"))
            .toList();
    assertEquals(1, violations.size(), rows.toString());
    assertEquals("frustration", violations.get(0).get("emotion").asText());
    assertEquals(
        0.6,
        violations.get(0).get("intensity").asDouble(),
        1e-12,
        "the rule's severity is the intensity");
    assertTrue(
        rows.stream().anyMatch(row -> row.contains("\"relief\"")),
        "the built-in appraisal table still applies");

    assertEquals(0, pass(events, rules, "bank"), err.toString(StandardCharsets.UTF_8));
    assertEquals(1, detector(report(), POLICY).get("count").asInt());
    assertEquals(
        0, report().get("derived_events_deposited").asInt(), "a violation is deposited once");
    assertEquals(rows, Files.readAllLines(tmp.resolve("bank/emotions.jsonl")));
  }

  private static JsonNode json(String row) {
    try {
      return new ObjectMapper().readTree(row);
    } catch (IOException e) {
      throw new AssertionError(row, e);
    }
  }

  @Test
  void aRuleThatDoesNotCompileExitsTwoNamingTheRuleAndTheColumn() throws Exception {
    assertEquals(
        2, pass(shop(), rules("session.last('tool.get_order').payload.result.status == "), "bank"));
    String e = err.toString(StandardCharsets.UTF_8);
    assertTrue(
        e.contains(
            "policy 1 (no_refund_after_shipping): \"violation\" does not compile at column 57: "),
        e);
    assertTrue(e.contains("rules.json"), e);
    assertTrue(Files.notExists(tmp.resolve("bank")), "nothing ran");
  }

  @Test
  void aRuleThatFailsOnACallIsCountedPerRuleInTheReportAndThePassGoesOn() throws Exception {
    Path events = events("e.jsonl", refund(0, "s1"), getOrder(1, "s2", "shipped"), refund(2, "s2"));
    assertEquals(0, pass(events, rules(SHIPPED), "bank"), err.toString(StandardCharsets.UTF_8));
    JsonNode policy = detector(report(), POLICY);
    assertEquals(1, policy.get("count").asInt(), policy.toString());
    assertEquals(1, policy.at("/evidence/errors").asInt(), policy.toString());
    assertEquals(1, policy.at("/evidence/error_examples/0/ref").asInt(), policy.toString());
    assertTrue(
        policy.at("/evidence/error_examples/0/message").asText().contains("'payload'"),
        policy.toString());
  }

  @Test
  void detectorsSelectsAPolicyByItsName() throws Exception {
    assertEquals(
        0,
        pass(shop(), rules(SHIPPED), "bank", "--detectors", POLICY),
        err.toString(StandardCharsets.UTF_8));
    assertEquals(List.of(POLICY), report().get("detectors").findValuesAsText("name"));
    assertEquals(
        0,
        pass(shop(), rules(SHIPPED), "bank2", "--detectors", "latency"),
        err.toString(StandardCharsets.UTF_8));
    assertEquals(List.of("latency"), report().get("detectors").findValuesAsText("name"));
    assertEquals(2, pass(shop(), rules(SHIPPED), "bank3", "--detectors", "policy.vibes"));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains("write_after_refusal, " + POLICY),
        err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void aRulesFileThatIsNoObjectExitsTwo() throws Exception {
    Path rules = Files.writeString(tmp.resolve("list.json"), "[]");
    assertEquals(2, pass(shop(), rules, "bank"));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains("list.json must hold a JSON object"),
        err.toString(StandardCharsets.UTF_8));
  }
}
