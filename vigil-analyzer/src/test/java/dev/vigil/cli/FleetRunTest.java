package dev.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.emobank.EmoBank;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventJson;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code run} over the events of several agents: a bank and reports per agent, and a fleet summary.
 */
class FleetRunTest {
  private static final Instant T0 = Instant.parse("2026-11-22T11:00:00Z");
  private static final String NOW = "2026-11-22T12:00:00Z";
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir Path tmp;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int run(String... args) {
    return Main.run(
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        args);
  }

  /**
   * Agent alpha fails four times; with {@code twoAgents}, agent "beta/eu" succeeds four times in
   * between.
   */
  private String events(boolean twoAgents) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < 4; i++) {
      b.append(
              EventJson.write(
                  Event.of(T0.plusSeconds(60L * i), "tool.book_slot", "fail")
                      .withOrigin("alpha", (long) i, null, null)))
          .append('\n');
      if (twoAgents) {
        b.append(
                EventJson.write(
                    Event.of(T0.plusSeconds(60L * i + 30), "tool.look_up", "ok")
                        .withOrigin("beta/eu", (long) i, null, null)))
            .append('\n');
      }
    }
    return b.toString();
  }

  private Path file(String name, String content) throws Exception {
    Path f = tmp.resolve(name);
    Files.writeString(f, content);
    return f;
  }

  @Test
  void eachAgentGetsItsOwnBankAndReportsAndTheSummaryListsThem() throws Exception {
    Path bank = tmp.resolve("bank");
    Path outDir = tmp.resolve("out");
    assertEquals(
        0,
        run(
            "run",
            "--events",
            file("fleet.jsonl", events(true)).toString(),
            "--emobank",
            bank.toString(),
            "--out",
            outDir.toString(),
            "--now",
            NOW,
            "--detectors",
            "none"),
        err.toString(StandardCharsets.UTF_8));

    String betaDir = dev.vigil.ingest.AgentName.directory("beta/eu");
    assertTrue(betaDir.startsWith("beta_eu-"), betaDir);
    assertFalse(Files.exists(bank.resolve(EmoBank.EMOTIONS)), "no bank at the root of a fleet");
    assertEquals(
        4,
        MAPPER
            .readTree(bank.resolve("agents/alpha/checkpoint.json").toFile())
            .get("events_deposited")
            .asInt());
    assertEquals(
        4,
        MAPPER
            .readTree(bank.resolve("agents").resolve(betaDir).resolve("checkpoint.json").toFile())
            .get("events_deposited")
            .asInt());
    JsonNode alphaReport = MAPPER.readTree(outDir.resolve("agents/alpha/report.json").toFile());
    assertEquals(4, alphaReport.get("events_used").asInt());
    assertEquals("frustration", alphaReport.get("snapshot").get("mood").asText());

    JsonNode fleet = MAPPER.readTree(outDir.resolve("report.json").toFile());
    assertTrue(fleet.get("fleet").asBoolean());
    assertEquals(Instant.parse(NOW), Instant.parse(fleet.get("now").asText()));
    assertEquals(2, fleet.get("agent_count").asInt());
    JsonNode alpha = fleet.get("agents").get(0);
    assertEquals("alpha", alpha.get("agent").asText());
    assertEquals("frustration", alpha.get("mood").asText());
    assertTrue(alpha.get("thorns").asInt() >= 1, alpha.toString());
    assertEquals("tool.book_slot:fail", alpha.get("top_thorn").get("cause").asText());
    assertEquals(Instant.parse(NOW), Instant.parse(alpha.get("last_pass").asText()));
    JsonNode beta = fleet.get("agents").get(1);
    assertEquals("beta/eu", beta.get("agent").asText());
    assertEquals("agents/" + betaDir, beta.get("dir").asText());
    assertEquals("relief", beta.get("mood").asText());
    assertEquals(0, beta.get("thorns").asInt());
    assertTrue(beta.get("top_thorn").isNull());
    String md = Files.readString(outDir.resolve("report.md"));
    assertTrue(md.contains("| alpha | frustration |"), md);
    assertTrue(
        out.toString(StandardCharsets.UTF_8)
            .contains("fleet summary: " + outDir.resolve("report.json") + " (2 agents)"),
        out.toString(StandardCharsets.UTF_8));

    // a second run deposits nothing twice
    assertEquals(
        0,
        run(
            "run",
            "--events",
            tmp.resolve("fleet.jsonl").toString(),
            "--emobank",
            bank.toString(),
            "--out",
            outDir.toString(),
            "--now",
            NOW,
            "--detectors",
            "none"),
        err.toString(StandardCharsets.UTF_8));
    assertEquals(
        0,
        MAPPER
            .readTree(outDir.resolve("agents/alpha/report.json").toFile())
            .get("events_deposited")
            .asInt());
  }

  @Test
  void eventsFromStdinAreReadOncePerAgent() throws Exception {
    Path outDir = tmp.resolve("out");
    InputStream saved = System.in;
    try {
      System.setIn(new ByteArrayInputStream(events(true).getBytes(StandardCharsets.UTF_8)));
      assertEquals(
          0,
          run(
              "run",
              "--events",
              "-",
              "--emobank",
              tmp.resolve("bank").toString(),
              "--out",
              outDir.toString(),
              "--now",
              NOW,
              "--detectors",
              "none"),
          err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setIn(saved);
    }
    assertEquals(
        2, MAPPER.readTree(outDir.resolve("report.json").toFile()).get("agent_count").asInt());
    assertEquals(
        4,
        MAPPER
            .readTree(outDir.resolve("agents/alpha/report.json").toFile())
            .get("events_used")
            .asInt());
  }

  @Test
  void oneAgentKeepsTheLayoutOfAPlainRun() throws Exception {
    Path bank = tmp.resolve("bank");
    Path outDir = tmp.resolve("out");
    assertEquals(
        0,
        run(
            "run",
            "--events",
            file("one.jsonl", events(false)).toString(),
            "--emobank",
            bank.toString(),
            "--out",
            outDir.toString(),
            "--now",
            NOW),
        err.toString(StandardCharsets.UTF_8));
    assertTrue(Files.exists(bank.resolve(EmoBank.EMOTIONS)));
    assertFalse(Files.exists(bank.resolve("agents")));
    assertFalse(Files.exists(outDir.resolve("agents")));
    JsonNode report = MAPPER.readTree(outDir.resolve("report.json").toFile());
    assertEquals(4, report.get("events_used").asInt());
    assertTrue(report.has("rbt"), "the pass's own report, not a summary");
  }
}
