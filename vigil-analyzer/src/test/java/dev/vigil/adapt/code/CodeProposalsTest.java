package dev.vigil.adapt.code;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CodeProposalsTest {
  private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");

  @TempDir Path dir;

  @Test
  void aRepositoryWithoutHotspotsGetsNoProposalWhateverTheEvidence() throws Exception {
    Path repo = TestRepos.copy("clean", dir);
    Map<String, String> before = TestRepos.checksums(repo);
    Evidence everything =
        Evidence.builder()
            .thorns("tool.set_reminder.premature:fail", 12)
            .thorns("tool.forecast:fail", 6)
            .prematureSuccesses(12)
            .failures(6)
            .timestampInconsistencies(2)
            .build();

    CodeOutcome outcome = CodeProposals.propose(repo, everything, dir.resolve("out"), NOW);

    assertEquals(CodeOutcome.Status.NONE, outcome.status());
    assertEquals(List.of(), outcome.proposals());
    assertEquals(
        List.of(
            "scanned 1 Java file: 0 hotspots",
            "TZReceiptStrategy does not fire (score 0): the evidence does not call for it or the repository has no"
                + " hotspot it works on",
            "RetryErrorsStrategy does not fire (score 0): the evidence does not call for it or the repository has no"
                + " hotspot it works on"),
        outcome.notes());
    assertFalse(Files.exists(dir.resolve("out/proposals")));
    assertEquals(before, TestRepos.checksums(repo));
  }

  @Test
  void evidenceWithoutThornsGetsNoProposalEvenOnARepositoryFullOfHotspots() throws Exception {
    for (String name : List.of("receipt-service", "local-times", "http-client")) {
      Path repo = TestRepos.copy(name, dir);
      Map<String, String> before = TestRepos.checksums(repo);
      CodeOutcome outcome = CodeProposals.propose(repo, Evidence.none(), dir.resolve("out"), NOW);
      assertEquals(CodeOutcome.Status.NONE, outcome.status(), name);
      assertEquals(List.of(), outcome.proposals(), name);
      assertEquals(before, TestRepos.checksums(repo), name);
    }
    assertFalse(Files.exists(dir.resolve("out/proposals")));
  }

  @Test
  void withoutAUsableRepoTheStageIsSkippedWithANote() throws Exception {
    Evidence e = TestRepos.robinEvidence();
    assertEquals(
        CodeOutcome.skipped("no --repo given: code proposals skipped"),
        CodeProposals.propose(null, e, dir, NOW));
    Path missing = dir.resolve("nowhere");
    assertEquals(
        CodeOutcome.skipped("--repo " + missing + " does not exist: code proposals skipped"),
        CodeProposals.propose(missing, e, dir, NOW));
    Path file = Files.writeString(dir.resolve("file.txt"), "x");
    assertEquals(
        CodeOutcome.skipped("--repo " + file + " is not a directory: code proposals skipped"),
        CodeProposals.propose(file, e, dir, NOW));
    CodeOutcome empty =
        CodeProposals.propose(Files.createDirectory(dir.resolve("empty")), e, dir, NOW);
    assertEquals(CodeOutcome.Status.NONE, empty.status());
    assertEquals(List.of("no Java sources under --repo " + dir.resolve("empty")), empty.notes());
  }

  @Test
  void strategiesAreRankedByScoreAndEachGetsItsOwnNumberedDiffAndNote() throws Exception {
    Path repo = dir.resolve("both");
    TestRepos.copyTree(TestRepos.resource("repos/receipt-service"), repo.resolve("reminders"));
    TestRepos.copyTree(TestRepos.resource("repos/http-client"), repo.resolve("weather"));
    Evidence mostlyFailures =
        Evidence.builder()
            .thorns("tool.forecast:fail", 9)
            .thorns("tool.set_reminder.premature:fail", 3)
            .topThorn("tool.forecast:fail", 6.0)
            .failures(9)
            .prematureSuccesses(3)
            .meanReceiptLagSec(12.5)
            .build();

    CodeOutcome outcome = CodeProposals.propose(repo, mostlyFailures, dir.resolve("out"), NOW);

    assertEquals(CodeOutcome.Status.PROPOSED, outcome.status());
    List<Proposal> written = outcome.written();
    assertEquals(
        List.of("RetryErrorsStrategy", "TZReceiptStrategy"),
        written.stream().map(Proposal::strategy).toList());
    assertEquals(0.95, written.get(0).score(), "9 of 12 thorns plus 0.2 for the top thorn");
    assertEquals(
        0.45,
        written.get(1).score(),
        "3 of 12 thorns plus 0.2 for the detected premature successes");
    assertEquals(dir.resolve("out/proposals/patch_20261122T120000Z.diff"), written.get(0).diff());
    assertEquals(dir.resolve("out/proposals/patch_20261122T120000Z_2.diff"), written.get(1).diff());
    assertEquals(dir.resolve("out/proposals/PR_20261122T120000Z_2.md"), written.get(1).pr());
    assertEquals(
        List.of("weather/src/main/java/net/weather/client/ForecastClient.java"),
        written.get(0).files());
    assertTrue(
        Files.readString(written.get(1).diff())
            .startsWith(
                "diff --git a/reminders/src/main/java/com/example/reminders/ReminderService.java"
                    + " b/reminders/src/main/java/com/example/reminders/ReminderService.java\n"
                    + "--- a/reminders/src/main/java/com/example/reminders/ReminderService.java\n"
                    + "+++ b/reminders/src/main/java/com/example/reminders/ReminderService.java\n@@ "));
    assertTrue(Files.readString(written.get(1).pr()).contains("| mean receipt lag | 12.5 s |"));
  }

  @Test
  void aProposalThatDoesNotCompileIsDroppedAndNothingIsWritten() throws Exception {
    Path repo = TestRepos.copy("receipt-service", dir);
    Strategy breaking =
        new Strategy() {
          @Override
          public String name() {
            return "Breaking";
          }

          @Override
          public String title() {
            return "Breaks the build";
          }

          @Override
          public double score(Evidence evidence, List<Hotspot> hotspots) {
            return 0.9;
          }

          @Override
          public Optional<Transformation> transform(
              Path file, String source, Evidence evidence, JavaRepo r) {
            if (!file.toString().endsWith("ReminderService.java")) {
              return Optional.empty();
            }
            return Optional.of(
                new Transformation(
                    source.replace("return \"Reminder set for \" + at;", "return at;"),
                    List.of("returns an Instant from a String method"),
                    List.of()));
          }

          @Override
          public String why(Evidence evidence) {
            return "to test the compile check";
          }
        };
    CodeOutcome outcome =
        new CodeProposals(List.of(breaking), CodeProposals.Settings.defaults())
            .run(repo, TestRepos.robinEvidence(), dir.resolve("out"), NOW);

    assertEquals(CodeOutcome.Status.NONE, outcome.status());
    Proposal p = outcome.proposals().get(0);
    assertFalse(p.isWritten());
    assertNull(p.diff());
    assertEquals(
        "compile: the patched code does not compile: src/main/java/com/example/reminders/"
            + "ReminderService.java:27: incompatible types: java.time.Instant cannot be converted to java.lang.String",
        p.droppedReason());
    assertEquals(Check.Outcome.PASSED, p.checks().get(0).outcome(), "the diff itself applies");
    assertFalse(Files.exists(dir.resolve("out/proposals")));
    ObjectNode json = p.toJson();
    assertEquals("dropped", json.get("status").asText());
    assertEquals(p.droppedReason(), json.get("dropped_reason").asText());
  }

  @Test
  void insideAGitWorkTreeTheApplyCommandNamesTheDirectoryAndRollsBack() throws Exception {
    Path work = Files.createDirectory(dir.resolve("work"));
    TestRepos.git(work, "init", "-q");
    Path repo = work.resolve("services/reminders");
    TestRepos.copyTree(TestRepos.resource("repos/receipt-service"), repo);
    TestRepos.git(work, "add", ".");
    TestRepos.git(work, "commit", "-q", "-m", "fixture");
    Map<String, String> before = TestRepos.checksums(work);

    Proposal p =
        CodeProposals.propose(repo, TestRepos.robinEvidence(), dir.resolve("out"), NOW)
            .written()
            .get(0);

    assertEquals(before, TestRepos.checksums(work), "neither the files nor .git were written");
    assertEquals(
        "git -C " + repo + " apply --directory=services/reminders " + p.diff(), p.applyCommand());
    assertEquals(
        "git -C " + repo + " apply -R --directory=services/reminders " + p.diff(),
        p.rollbackCommand());

    sh(p.applyCommand());
    String service =
        Files.readString(repo.resolve("src/main/java/com/example/reminders/ReminderService.java"));
    assertTrue(service.contains("receipt.get(30, TimeUnit.SECONDS);"), service);
    sh(p.rollbackCommand());
    assertEquals(before, TestRepos.checksums(work), "rolled back to the bytes");
  }

  @Test
  void reposWhoseLibrariesAreMissingStillGetAProposalWithTheCompileCheckSkipped() throws Exception {
    Path repo =
        TestRepos.write(
            dir.resolve("agent"),
            "src/main/java/bot/Tools.java",
            """
        package bot;

        import dev.langchain4j.agent.tool.Tool;
        import java.time.Instant;
        import java.time.LocalDateTime;
        import java.time.ZoneId;
        import java.time.ZoneOffset;

        public class Tools {
          private final ZoneId zone = ZoneId.of("Europe/Berlin");

          @Tool("Schedules a call")
          public String call(String when) {
            Instant at = LocalDateTime.parse(when).toInstant(ZoneOffset.UTC);
            return "Call at " + at;
          }
        }
        """);
    Proposal p =
        CodeProposals.propose(repo, TestRepos.robinEvidence(), dir.resolve("out"), NOW)
            .written()
            .get(0);
    Check compile = p.checks().get(1);
    assertEquals(Check.Outcome.SKIPPED, compile.outcome());
    assertTrue(
        compile
            .detail()
            .startsWith(
                "compile check skipped: the repository does not compile on its own here"
                    + " (2 errors, the first: src/main/java/bot/Tools.java:3: package dev.langchain4j.agent.tool does not"
                    + " exist)"),
        compile.detail());
  }

  @Test
  void theOutcomeIsReportJsonReady() throws Exception {
    Path repo = TestRepos.copy("receipt-service", dir);
    CodeOutcome outcome =
        CodeProposals.propose(repo, TestRepos.robinEvidence(), dir.resolve("out"), NOW);
    ObjectNode json = outcome.toJson();
    assertEquals("proposed", json.get("status").asText());
    assertEquals(outcome.notes().size(), json.get("notes").size());
    ObjectNode p = (ObjectNode) json.get("proposals").get(0);
    assertEquals("TZReceiptStrategy", p.get("strategy").asText());
    assertEquals(1.0, p.get("score").asDouble());
    assertEquals("written", p.get("status").asText());
    assertEquals(
        dir.resolve("out/proposals/patch_20261122T120000Z.diff").toString(),
        p.get("diff").asText());
    assertEquals("git apply --check", p.get("checks").get(0).get("name").asText());
    assertEquals("passed", p.get("checks").get(1).get("outcome").asText());
    assertEquals(2, p.get("changes").size());
    assertEquals(json.get("proposals"), outcome.proposalsJson());
  }

  private static void sh(String command) throws Exception {
    Process p = new ProcessBuilder("sh", "-c", command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertTrue(p.waitFor(60, TimeUnit.SECONDS));
    assertEquals(0, p.exitValue(), command + ": " + out);
  }
}
