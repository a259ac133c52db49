package dev.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.adapt.prompt.AdaptiveContent;
import dev.vigil.adapt.prompt.PlanItem;
import dev.vigil.adapt.prompt.PromptAdaptation;
import dev.vigil.adapt.prompt.PromptOutcome;
import dev.vigil.report.Artifacts;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RollbackCommandTest {
  private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");
  private static final String PROMPT =
      "## BEGIN_CORE_IDENTITY\nYou are Robin.\n## END_CORE_IDENTITY\n"
          + "## BEGIN_ADAPTIVE_SECTION\n## END_ADAPTIVE_SECTION\n";

  @TempDir Path tmp;

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private Path outDir;
  private Path prompt;

  private int run(String... args) {
    out.reset();
    err.reset();
    return Main.run(
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        args);
  }

  private PromptOutcome pass(String rule, int minute) {
    return PromptAdaptation.adapt(
        prompt,
        new AdaptiveContent(
            List.of(rule),
            List.of(new PlanItem("tool.set_reminder:fail", 1.5, 2)),
            "note",
            NOW,
            Integer.toString(minute)),
        outDir,
        Clock.fixed(NOW.plusSeconds(60L * minute), ZoneOffset.UTC));
  }

  private byte[] newPrompt() throws IOException {
    return Files.readAllBytes(outDir.resolve("new_prompt.txt"));
  }

  @BeforeEach
  void threeVersions() throws IOException {
    outDir = tmp.resolve("out");
    prompt = Files.writeString(tmp.resolve("robin.txt"), PROMPT);
    pass("Wait for the receipt.", 1); // versions 1 (original) and 2
    pass("Store times in UTC.", 2); // version 3
  }

  @Test
  void writesTheVersionWithThatNumberAsNewPrompt() throws Exception {
    assertEquals(
        0,
        run("rollback", "--out", outDir.toString(), "--to", "1"),
        err.toString(StandardCharsets.UTF_8));
    assertArrayEquals(Files.readAllBytes(prompt), newPrompt());
    assertTrue(
        out.toString(StandardCharsets.UTF_8)
            .contains(
                "rolled back: wrote version 1 (prompt_0001_20261122T120100Z.txt, sha256 "
                    + Artifacts.sha256(PROMPT.getBytes(StandardCharsets.UTF_8))),
        out.toString(StandardCharsets.UTF_8));
    assertTrue(
        out.toString(StandardCharsets.UTF_8).contains("to " + outDir.resolve("new_prompt.txt")),
        out.toString(StandardCharsets.UTF_8));
    assertEquals(PROMPT, Files.readString(prompt), "the prompt file is not touched");

    assertEquals(
        0,
        run("rollback", "--out", outDir.toString(), "--to", "2"),
        err.toString(StandardCharsets.UTF_8));
    assertArrayEquals(
        Files.readAllBytes(outDir.resolve("prompts/prompt_0002_20261122T120100Z.txt")),
        newPrompt());
    assertTrue(
        new String(newPrompt(), StandardCharsets.UTF_8).contains("- Wait for the receipt.\n"));
  }

  @Test
  void writesTheVersionWithThatSha256Prefix() throws Exception {
    byte[] two = Files.readAllBytes(outDir.resolve("prompts/prompt_0002_20261122T120100Z.txt"));
    String prefix = Artifacts.sha256(two).substring(0, 7);
    assertEquals(
        0,
        run("rollback", "--out", outDir.toString(), "--to", prefix),
        err.toString(StandardCharsets.UTF_8));
    assertArrayEquals(two, newPrompt());
    assertTrue(
        out.toString(StandardCharsets.UTF_8).contains("wrote version 2"),
        out.toString(StandardCharsets.UTF_8));
  }

  @Test
  void saysSoWhenNewPromptAlreadyHoldsTheVersion() throws Exception {
    assertEquals(
        0,
        run("rollback", "--out", outDir.toString(), "--to", "3"),
        err.toString(StandardCharsets.UTF_8));
    assertTrue(
        out.toString(StandardCharsets.UTF_8).contains("already holds version 3"),
        out.toString(StandardCharsets.UTF_8));
  }

  @Test
  void anUnknownVersionExitsTwoListingTheCandidates() throws Exception {
    byte[] before = newPrompt();
    assertEquals(2, run("rollback", "--out", outDir.toString(), "--to", "7"));
    String e = err.toString(StandardCharsets.UTF_8);
    assertTrue(
        e.contains(
            " vigil rollback ERROR: --out " + outDir + ": no kept version is numbered \"7\""),
        e);
    assertTrue(
        e.contains("version 1  sha256 ")
            && e.contains("version 2  sha256 ")
            && e.contains("version 3  sha256 "),
        e);
    assertArrayEquals(before, newPrompt());
    assertEquals(2, run("rollback", "--out", outDir.toString(), "--to", "abc"));
    assertTrue(
        err.toString(StandardCharsets.UTF_8)
            .contains("is neither a version number nor a SHA-256 prefix"),
        err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void anAlteredKeptFileExitsTwoNamingItAndWritesNothing() throws Exception {
    Path one = outDir.resolve("prompts/prompt_0001_20261122T120100Z.txt");
    Files.writeString(one, PROMPT.replace("Robin", "Robyn"));
    byte[] before = newPrompt();
    assertEquals(2, run("rollback", "--out", outDir.toString(), "--to", "1"));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains(one + " (version 1) has SHA-256 "),
        err.toString(StandardCharsets.UTF_8));
    assertArrayEquals(before, newPrompt());
  }

  @Test
  void aMissingOutDirectoryOrNoVersionsExitTwo() throws Exception {
    Path missing = tmp.resolve("nope");
    assertEquals(2, run("rollback", "--out", missing.toString(), "--to", "1"));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains("--out " + missing + " is not a directory"),
        err.toString(StandardCharsets.UTF_8));
    Path empty = Files.createDirectories(tmp.resolve("empty"));
    assertEquals(2, run("rollback", "--out", empty.toString(), "--to", "1"));
    assertTrue(
        err.toString(StandardCharsets.UTF_8)
            .contains("no prompt versions are kept in " + empty.resolve("prompts")),
        err.toString(StandardCharsets.UTF_8));
    assertEquals(2, run("rollback", "--out", empty.toString(), "--list"));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains("no prompt versions are kept"),
        err.toString(StandardCharsets.UTF_8));
    assertFalse(Files.exists(empty.resolve("new_prompt.txt")));
  }

  @Test
  void usageErrorsExitTwo() {
    assertEquals(2, run("rollback", "--out", outDir.toString()));
    assertEquals(2, run("rollback", "--to", "1"));
    assertEquals(2, run("rollback", "--out", outDir.toString(), "--to", "1", "--list"));
  }

  @Test
  void listsTheVersionsMarkingWhatNewPromptHolds() {
    assertEquals(
        0,
        run("rollback", "--out", outDir.toString(), "--list"),
        err.toString(StandardCharsets.UTF_8));
    List<String> lines = out.toString(StandardCharsets.UTF_8).lines().toList();
    assertEquals(3, lines.size(), out.toString(StandardCharsets.UTF_8));
    assertTrue(lines.get(0).startsWith("  version 1  sha256 "), lines.get(0));
    assertTrue(lines.get(0).contains("original"), lines.get(0));
    assertTrue(lines.get(2).startsWith("* version 3  sha256 "), lines.get(2));
  }

  @Test
  void helpNamesTheOptions() {
    assertEquals(0, run("rollback", "--help"));
    assertTrue(
        out.toString(StandardCharsets.UTF_8).contains("--to=N|SHA"),
        out.toString(StandardCharsets.UTF_8));
    assertTrue(
        out.toString(StandardCharsets.UTF_8).contains("--out=DIR"),
        out.toString(StandardCharsets.UTF_8));
    assertEquals(0, run("--help"));
    assertTrue(
        out.toString(StandardCharsets.UTF_8).contains("rollback"),
        out.toString(StandardCharsets.UTF_8));
  }
}
