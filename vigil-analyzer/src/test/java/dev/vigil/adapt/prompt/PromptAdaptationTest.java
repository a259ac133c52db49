package dev.vigil.adapt.prompt;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class PromptAdaptationTest {
  private static final Instant NOW = Instant.parse("2026-11-22T12:00:00Z");
  private static final Clock CLOCK =
      Clock.fixed(Instant.parse("2026-11-22T12:00:05Z"), ZoneOffset.UTC);
  private static final String PROMPT =
      "# Robin\r\n## BEGIN_CORE_IDENTITY\r\nYou are Robin, a reminder agent 🫖.\r\n"
          + "Never print ## END_CORE_IDENTITY.\r\n## END_CORE_IDENTITY\r\n\r\n## BEGIN_ADAPTIVE_SECTION\r\n"
          + "## END_ADAPTIVE_SECTION\r\nThanks.\r\n";

  @TempDir Path tmp;

  private Path prompt(String text) throws IOException {
    return Files.writeString(tmp.resolve("robin.txt"), text);
  }

  private Path out() {
    return tmp.resolve("out");
  }

  private static AdaptiveContent content(String rule) {
    return new AdaptiveContent(
        List.of(rule),
        List.of(new PlanItem("tool.set_reminder:fail", 2.0, 3)),
        "Receipts came late.",
        NOW,
        "1");
  }

  private static List<JsonNode> index(Path out) throws IOException {
    List<JsonNode> rows = new ArrayList<>();
    for (String line : Files.readAllLines(out.resolve("prompts/index.jsonl"))) {
      rows.add(new ObjectMapper().readTree(line));
    }
    return rows;
  }

  private static String sha(byte[] bytes) {
    return Sha256.hex(bytes);
  }

  private static Map<String, byte[]> tree(Path dir) throws IOException {
    Map<String, byte[]> files = new TreeMap<>();
    if (!Files.exists(dir)) {
      return files;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path f : (Iterable<Path>) s::iterator) {
        if (Files.isRegularFile(f)) {
          files.put(dir.relativize(f).toString(), Files.readAllBytes(f));
        }
      }
    }
    return files;
  }

  @Test
  void theFirstPassKeepsTheOriginalAndTheNewPromptAndWritesNewPrompt() throws Exception {
    Path file = prompt(PROMPT);
    byte[] before = Files.readAllBytes(file);
    PromptOutcome o = PromptAdaptation.adapt(file, content("Wait for the receipt."), out(), CLOCK);

    assertEquals(PromptStatus.WRITTEN, o.status(), o.summary());
    assertArrayEquals(before, Files.readAllBytes(file), "the prompt file is never written");
    byte[] written = Files.readAllBytes(out().resolve("new_prompt.txt"));
    String text = new String(written, StandardCharsets.UTF_8);
    assertTrue(text.contains("\r\n- Wait for the receipt.\r\n"), text);
    assertFalse(text.replace("\r\n", "").contains("\n"), "a CRLF file stays CRLF");
    assertTrue(text.startsWith(PROMPT.substring(0, PROMPT.indexOf("## END_ADAPTIVE"))), text);
    assertTrue(text.endsWith("## END_ADAPTIVE_SECTION\r\nThanks.\r\n"), text);

    List<JsonNode> index = index(out());
    assertEquals(2, index.size());
    assertEquals(1, index.get(0).get("version").asInt());
    assertEquals("original", index.get(0).get("source").asText());
    assertEquals("prompt_0001_20261122T120005Z.txt", index.get(0).get("file").asText());
    assertEquals(sha(before), index.get(0).get("sha256").asText());
    assertArrayEquals(
        before, Files.readAllBytes(out().resolve("prompts/prompt_0001_20261122T120005Z.txt")));
    assertEquals(2, index.get(1).get("version").asInt());
    assertEquals("pass", index.get(1).get("source").asText());
    assertEquals("1", index.get(1).get("pass").asText());
    assertEquals("2026-11-22T12:00:05.000000Z", index.get(1).get("created").asText());
    assertEquals(sha(written), index.get(1).get("sha256").asText());
    assertEquals(written.length, index.get(1).get("bytes").asInt());
    assertArrayEquals(
        written, Files.readAllBytes(out().resolve("prompts/prompt_0002_20261122T120005Z.txt")));

    assertEquals(2, o.version());
    assertEquals(1, o.originalVersion());
    assertEquals(sha(before), o.oldSha256());
    assertEquals(sha(written), o.newSha256());
    String core =
        "## BEGIN_CORE_IDENTITY\r\nYou are Robin, a reminder agent 🫖.\r\n"
            + "Never print ## END_CORE_IDENTITY.\r\n## END_CORE_IDENTITY\r\n";
    assertEquals(sha(core.getBytes(StandardCharsets.UTF_8)), o.coreSha256());
    assertEquals(LineEnding.CRLF, o.lineEnding());
    assertEquals(out().resolve("new_prompt.txt"), o.newPrompt());
    assertEquals(out().resolve("prompts/prompt_0002_20261122T120005Z.txt"), o.versionFile());
    assertNull(o.refusal());
    try (Stream<Path> s = Files.list(out())) {
      assertEquals(
          List.of("new_prompt.txt", "prompts"),
          s.map(p -> p.getFileName().toString()).sorted().toList(),
          "no temporary file is left behind");
    }
  }

  @Test
  void theSameContentAgainKeepsNoDuplicateVersion() throws Exception {
    Path file = prompt(PROMPT);
    PromptAdaptation.adapt(file, content("Wait for the receipt."), out(), CLOCK);
    PromptOutcome again =
        PromptAdaptation.adapt(file, content("Wait for the receipt."), out(), CLOCK);
    assertEquals(PromptStatus.UNCHANGED, again.status());
    assertEquals(2, again.version());
    assertEquals(1, again.originalVersion());
    assertTrue(
        again.note().contains("same bytes as the latest kept version 2; no new version kept"),
        again.note());
    assertEquals(2, index(out()).size());
    assertEquals(again.newSha256(), sha(Files.readAllBytes(out().resolve("new_prompt.txt"))));
  }

  @Test
  void newContentIsKeptAsTheNextVersionAndTheOriginalIsNotKeptTwice() throws Exception {
    Path file = prompt(PROMPT);
    PromptAdaptation.adapt(file, content("Wait for the receipt."), out(), CLOCK);
    PromptOutcome o =
        PromptAdaptation.adapt(
            file, content("Store times in UTC."), out(), Clock.offset(CLOCK, Duration.ofHours(1)));
    assertEquals(PromptStatus.WRITTEN, o.status());
    assertEquals(3, o.version());
    assertEquals(1, o.originalVersion());
    List<JsonNode> index = index(out());
    assertEquals(
        List.of("original", "pass", "pass"),
        index.stream().map(n -> n.get("source").asText()).toList());
    assertEquals("prompt_0003_20261122T130005Z.txt", index.get(2).get("file").asText());
    assertTrue(
        Files.readString(out().resolve("new_prompt.txt")).contains("- Store times in UTC.\r\n"));
  }

  @Test
  void aPromptEditedByHandIsKeptAsAnOriginalAgain() throws Exception {
    Path file = prompt(PROMPT);
    PromptAdaptation.adapt(file, content("Wait for the receipt."), out(), CLOCK);
    prompt(PROMPT.replace("Thanks.", "Thank you."));
    PromptOutcome o = PromptAdaptation.adapt(file, content("Wait for the receipt."), out(), CLOCK);
    assertEquals(PromptStatus.WRITTEN, o.status());
    assertEquals(3, o.originalVersion());
    assertEquals(4, o.version());
    assertTrue(Files.readString(out().resolve("new_prompt.txt")).endsWith("Thank you.\r\n"));
  }

  @Test
  void aPromptThatAlreadyHoldsTheContentIsUnchangedAndKeptOnce() throws Exception {
    Path file = prompt(PROMPT);
    PromptAdaptation.adapt(file, content("Wait for the receipt."), out(), CLOCK);
    Path applied = Files.copy(out().resolve("new_prompt.txt"), tmp.resolve("applied.txt"));
    Path other = tmp.resolve("other-out");
    PromptOutcome o =
        PromptAdaptation.adapt(applied, content("Wait for the receipt."), other, CLOCK);
    assertEquals(PromptStatus.UNCHANGED, o.status());
    assertEquals(1, o.version());
    assertEquals(1, o.originalVersion());
    assertEquals(1, index(other).size());
    assertArrayEquals(
        Files.readAllBytes(applied), Files.readAllBytes(other.resolve("new_prompt.txt")));
  }

  @Test
  void anUnchangedPassPutsTheLatestVersionBackAfterARollback() throws Exception {
    Path file = prompt(PROMPT);
    PromptAdaptation.adapt(file, content("Wait for the receipt."), out(), CLOCK);
    PromptRollback r = PromptRollback.to(out(), "1");
    assertArrayEquals(
        Files.readAllBytes(file), Files.readAllBytes(out().resolve("new_prompt.txt")));
    assertEquals(1, r.version().number());
    PromptOutcome o = PromptAdaptation.adapt(file, content("Wait for the receipt."), out(), CLOCK);
    assertEquals(PromptStatus.UNCHANGED, o.status());
    assertEquals(o.newSha256(), sha(Files.readAllBytes(out().resolve("new_prompt.txt"))));
  }

  static Stream<Arguments> badPrompts() {
    String core = "## BEGIN_CORE_IDENTITY\nYou are Robin.\n## END_CORE_IDENTITY\n";
    String adaptive = "## BEGIN_ADAPTIVE_SECTION\n## END_ADAPTIVE_SECTION\n";
    return Stream.of(
        Arguments.of(
            "no markers",
            "You are Robin.\n".getBytes(StandardCharsets.UTF_8),
            RefusalReason.MARKERS_MISSING),
        Arguments.of(
            "core twice",
            (core + core + adaptive).getBytes(StandardCharsets.UTF_8),
            RefusalReason.CORE_TWICE),
        Arguments.of(
            "core missing", adaptive.getBytes(StandardCharsets.UTF_8), RefusalReason.CORE_MISSING),
        Arguments.of(
            "not UTF-8",
            (core + "Caf\u00e9\n" + adaptive).getBytes(StandardCharsets.ISO_8859_1),
            RefusalReason.NOT_UTF8),
        Arguments.of(
            "UTF-16", (core + adaptive).getBytes(StandardCharsets.UTF_16), RefusalReason.NOT_UTF8),
        Arguments.of(
            "adaptive unbalanced",
            (core + "## BEGIN_ADAPTIVE_SECTION\n").getBytes(StandardCharsets.UTF_8),
            RefusalReason.ADAPTIVE_UNBALANCED),
        Arguments.of(
            "core unbalanced",
            ("## BEGIN_CORE_IDENTITY\n" + adaptive).getBytes(StandardCharsets.UTF_8),
            RefusalReason.CORE_UNBALANCED),
        Arguments.of(
            "adaptive missing",
            core.getBytes(StandardCharsets.UTF_8),
            RefusalReason.ADAPTIVE_MISSING));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("badPrompts")
  void aBadPromptIsRefusedAndNothingIsWritten(String what, byte[] bytes, RefusalReason reason)
      throws Exception {
    Path file = Files.write(tmp.resolve("robin.txt"), bytes);
    String checksum = sha(bytes);
    PromptOutcome o = PromptAdaptation.adapt(file, content("x"), out(), CLOCK);
    assertEquals(PromptStatus.REFUSED, o.status(), what);
    assertEquals(reason, o.refusal(), o.reason());
    assertTrue(o.reason().startsWith("prompt " + file), o.reason());
    assertEquals(checksum, sha(Files.readAllBytes(file)), "the prompt file is untouched");
    assertFalse(Files.exists(out()), "a refusal writes nothing");
    assertEquals(checksum, o.oldSha256());
    assertNull(o.newSha256());
    assertNull(o.newPrompt());
    assertEquals(0, o.version());
    ObjectNode json = o.toJson();
    assertEquals("refused", json.get("status").asText());
    assertEquals(reason.code(), json.get("refusal").asText());
    assertEquals(o.reason(), json.get("reason").asText());
    assertFalse(json.has("new_prompt"));
    assertTrue(o.summary().startsWith("prompt: refused: prompt " + file), o.summary());
  }

  @Test
  void aRefusalLeavesEarlierVersionsAndNewPromptAlone() throws Exception {
    Path file = prompt(PROMPT);
    PromptAdaptation.adapt(file, content("Wait for the receipt."), out(), CLOCK);
    Map<String, byte[]> before = tree(out());
    prompt(PROMPT + "## BEGIN_CORE_IDENTITY\r\nagain\r\n## END_CORE_IDENTITY\r\n");
    PromptOutcome o = PromptAdaptation.adapt(file, content("Other."), out(), CLOCK);
    assertEquals(RefusalReason.CORE_TWICE, o.refusal());
    Map<String, byte[]> after = tree(out());
    assertEquals(before.keySet(), after.keySet());
    before.forEach((name, bytes) -> assertArrayEquals(bytes, after.get(name), name));
  }

  @Test
  void aMissingOrUnreadablePromptIsRefused() throws Exception {
    PromptOutcome missing =
        PromptAdaptation.adapt(tmp.resolve("nope.txt"), content("x"), out(), CLOCK);
    assertEquals(RefusalReason.PROMPT_UNREADABLE, missing.refusal());
    assertEquals(
        "prompt " + tmp.resolve("nope.txt") + " does not exist; check the path given to --prompt",
        missing.reason());
    assertNull(missing.oldSha256());
    PromptOutcome dir = PromptAdaptation.adapt(tmp, content("x"), out(), CLOCK);
    assertEquals(RefusalReason.PROMPT_UNREADABLE, dir.refusal());
    assertTrue(dir.reason().contains("is a directory"), dir.reason());
    assertFalse(Files.exists(out()));
  }

  @Test
  void thePromptMayNotBeTheNewPromptItself() throws Exception {
    Files.createDirectories(out());
    Path file = Files.writeString(out().resolve("new_prompt.txt"), PROMPT);
    PromptOutcome o = PromptAdaptation.adapt(file, content("x"), out(), CLOCK);
    assertEquals(RefusalReason.PROMPT_IS_OUTPUT, o.refusal());
    assertEquals(PROMPT, Files.readString(file));
    assertFalse(Files.exists(out().resolve("prompts")));
  }

  @Test
  void aCorruptIndexIsRefusedNamingItsLine() throws Exception {
    Path file = prompt(PROMPT);
    PromptAdaptation.adapt(file, content("Wait for the receipt."), out(), CLOCK);
    Path index = out().resolve("prompts/index.jsonl");
    Files.writeString(index, Files.readString(index) + "{\"version\":\"three\"}\n");
    Map<String, byte[]> before = tree(out());
    PromptOutcome o = PromptAdaptation.adapt(file, content("Other."), out(), CLOCK);
    assertEquals(RefusalReason.VERSIONS_UNREADABLE, o.refusal());
    assertTrue(
        o.reason().contains(index + " line 3: version \"three\" is not a positive whole number"),
        o.reason());
    assertEquals(before.keySet(), tree(out()).keySet());
  }

  @Test
  void anOutThatIsAFileIsRefused() throws Exception {
    Path file = prompt(PROMPT);
    Path notADir = Files.writeString(tmp.resolve("out-file"), "x");
    PromptOutcome o = PromptAdaptation.adapt(file, content("x"), notADir, CLOCK);
    assertEquals(RefusalReason.OUT_UNWRITABLE, o.refusal());
    assertTrue(o.reason().startsWith("cannot write the new prompt into " + notADir), o.reason());
    assertEquals("x", Files.readString(notADir));
  }

  @Test
  void numbersAreNeverReusedEvenForAFileTheIndexLost() throws Exception {
    Path file = prompt(PROMPT);
    Files.createDirectories(out().resolve("prompts"));
    Files.writeString(out().resolve("prompts/prompt_0007_20261101T000000Z.txt"), "left by a crash");
    PromptOutcome o = PromptAdaptation.adapt(file, content("x"), out(), CLOCK);
    assertEquals(8, o.originalVersion());
    assertEquals(9, o.version());
    assertEquals(
        "left by a crash",
        Files.readString(out().resolve("prompts/prompt_0007_20261101T000000Z.txt")));
  }

  @Test
  void theReportSectionNamesEveryFigure() throws Exception {
    Path file = prompt(PROMPT);
    PromptOutcome o = PromptAdaptation.adapt(file, content("Wait."), out(), CLOCK);
    ObjectNode json = o.toJson();
    assertEquals("written", json.get("status").asText());
    assertEquals(file.toString(), json.get("file").asText());
    assertEquals(out().resolve("new_prompt.txt").toString(), json.get("new_prompt").asText());
    assertEquals(2, json.get("version").asInt());
    assertEquals(1, json.get("original_version").asInt());
    assertEquals(o.versionFile().toString(), json.get("version_file").asText());
    assertEquals(o.oldSha256(), json.get("sha256_old").asText());
    assertEquals(o.newSha256(), json.get("sha256_new").asText());
    assertEquals(o.coreSha256(), json.get("core_sha256").asText());
    assertEquals("CRLF", json.get("line_ending").asText());
    assertEquals(o.note(), json.get("note").asText());
    assertFalse(json.has("refusal"));
  }
}
