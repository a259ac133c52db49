package dev.vigil.emobank;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmoBankTest {
  private static final Instant T = Instant.parse("2026-11-22T10:00:00Z");
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir Path dir;

  @Test
  void anAmendRowReplacesItsPredecessorForEveryReader() throws Exception {
    try (EmoBank bank = EmoBank.open(dir)) {
      bank.deposit(1, EmotionRow.of(T, "frustration", 0.9, -0.7, "a:fail"));
      bank.deposit(2, EmotionRow.of(T.plusSeconds(60), "frustration", 0.9, -0.7, "a:fail"));
      bank.deposit(3, EmotionRow.of(T.plusSeconds(120), "frustration", 0.9, -0.7, "a:fail"));
      bank.deposit(4, EmotionRow.of(T.plusSeconds(180), "relief", 0.3, 0.6, "a:ok"));
      bank.commit(MAPPER.createObjectNode());
    }
    assertEquals(
        5,
        Files.readAllLines(dir.resolve(EmoBank.EMOTIONS)).size()); // row, 2 amends, relief, shadow
    try (EmoBank bank = EmoBank.open(dir)) {
      List<EmotionRow> live = bank.liveRows();
      assertEquals(3, live.size());
      assertEquals(1.0, live.get(0).intensity(), 1e-12);
      assertEquals(T.plusSeconds(120), live.get(0).ts());
      assertFalse(live.get(0).amend());
      assertEquals("determination", live.get(2).emotion());
      assertEquals(4, bank.depositedEvents());
    }
  }

  @Test
  void anEventIsDepositedOnce() throws Exception {
    try (EmoBank bank = EmoBank.open(dir)) {
      assertEquals(1, bank.deposit(7, EmotionRow.of(T, "frustration", 0.9, -0.7, "a:fail")).size());
      assertEquals(
          List.of(), bank.deposit(7, EmotionRow.of(T, "frustration", 0.9, -0.7, "a:fail")));
      bank.commit(MAPPER.createObjectNode());
    }
    try (EmoBank bank = EmoBank.open(dir)) {
      assertEquals(
          List.of(), bank.deposit(7, EmotionRow.of(T, "frustration", 0.9, -0.7, "a:fail")));
    }
  }

  @Test
  void aCommittedCompactionWhoseFilesWereNotMovedIsFinishedAtOpen() throws Exception {
    try (EmoBank bank = EmoBank.open(dir)) {
      bank.deposit(1, EmotionRow.of(T, "frustration", 0.9, -0.7, "a:fail"));
      bank.deposit(2, EmotionRow.of(T.plusSeconds(3600), "anxiety", 0.5, -0.6, "b:delay"));
      bank.commit(MAPPER.createObjectNode());
    }
    // the state a crash leaves between the compaction's commit and its renames
    String keptRow = Files.readAllLines(dir.resolve(EmoBank.EMOTIONS)).get(1) + "\n";
    Files.writeString(dir.resolve(EmoBank.EMOTIONS + ".compact.tmp"), keptRow);
    ObjectNode episodes =
        Retention.compact(
                List.of(EmotionRow.of(T, "frustration", 0.9, -0.7, "a:fail")),
                T.plusSeconds(1),
                Retention.emptyEpisodes())
            .episodes();
    MAPPER.writeValue(dir.resolve(EmoBank.EPISODES + ".tmp").toFile(), episodes);
    ObjectNode cp = (ObjectNode) MAPPER.readTree(dir.resolve(EmoBank.CHECKPOINT).toFile());
    cp.put("compaction_bytes", keptRow.getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
    MAPPER.writeValue(dir.resolve(EmoBank.CHECKPOINT).toFile(), cp);

    try (EmoBank bank = EmoBank.open(dir)) {
      assertEquals(1, bank.liveRows().size());
      assertEquals("b:delay", bank.liveRows().get(0).cause());
      assertEquals(1, bank.episodes().get("compacted_rows").asInt());
    }
    assertEquals(keptRow, Files.readString(dir.resolve(EmoBank.EMOTIONS)));
  }

  @Test
  void emotionsShorterThanCommittedIsCorruption() throws Exception {
    try (EmoBank bank = EmoBank.open(dir)) {
      bank.deposit(1, EmotionRow.of(T, "frustration", 0.9, -0.7, "a:fail"));
      bank.commit(MAPPER.createObjectNode());
    }
    Files.writeString(dir.resolve(EmoBank.EMOTIONS), "");
    BankCorruptException e = assertThrows(BankCorruptException.class, () -> EmoBank.open(dir));
    assertEquals(dir.resolve(EmoBank.EMOTIONS), e.file());
  }

  @Test
  void laterCommitsOfAnOpenBankAppendOnlyTheNewIdentities() throws Exception {
    try (EmoBank bank = EmoBank.open(dir)) {
      bank.deposit(1, EmotionRow.of(T, "joy", 0.5, 0.6, "a:ok"));
      bank.commit(MAPPER.createObjectNode());
      Path seen = onlySeenFile();
      assertEquals(8, Files.size(seen));
      bank.deposit(2, EmotionRow.of(T.plusSeconds(60), "frustration", 0.9, -0.7, "b:fail"));
      bank.deposit(3, EmotionRow.of(T.plusSeconds(120), "joy", 0.5, 0.6, "a:ok"));
      bank.commit(null);
      assertEquals(seen, onlySeenFile(), "the same file, appended to");
      assertEquals(24, Files.size(seen));
      bank.commit(null); // nothing new
      assertEquals(24, Files.size(seen));
    }
    try (EmoBank bank = EmoBank.open(dir)) {
      assertEquals(3, bank.depositedEvents());
      assertEquals(
          List.of(),
          bank.deposit(2, EmotionRow.of(T.plusSeconds(60), "frustration", 0.9, -0.7, "b:fail")));
    }
  }

  @Test
  void identitiesAppendedByACommitThatDidNotHappenAreNotDeposited() throws Exception {
    try (EmoBank bank = EmoBank.open(dir)) {
      bank.deposit(1, EmotionRow.of(T, "joy", 0.5, 0.6, "a:ok"));
      bank.commit(MAPPER.createObjectNode());
    }
    Path seen = onlySeenFile();
    // a commit that died after appending identity 2 and half of 3, before its checkpoint was
    // renamed into place
    Files.write(
        seen,
        new byte[] {0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 0},
        java.nio.file.StandardOpenOption.APPEND);
    try (EmoBank bank = EmoBank.open(dir)) {
      assertEquals(1, bank.depositedEvents());
      assertEquals(
          1, bank.deposit(2, EmotionRow.of(T.plusSeconds(60), "joy", 0.5, 0.6, "a:ok")).size());
      bank.commit(null);
    }
    Path rewritten = onlySeenFile();
    assertFalse(rewritten.equals(seen), "an opened bank's first commit writes a new identity file");
    assertEquals(16, Files.size(rewritten));
    try (EmoBank bank = EmoBank.open(dir)) {
      assertEquals(2, bank.depositedEvents());
    }
  }

  @Test
  void anIdentityFileShorterThanItsCountIsCorruption() throws Exception {
    try (EmoBank bank = EmoBank.open(dir)) {
      bank.deposit(1, EmotionRow.of(T, "joy", 0.5, 0.6, "a:ok"));
      bank.deposit(2, EmotionRow.of(T.plusSeconds(60), "joy", 0.5, 0.6, "a:ok"));
      bank.commit(MAPPER.createObjectNode());
    }
    Path seen = onlySeenFile();
    Files.write(seen, java.util.Arrays.copyOf(Files.readAllBytes(seen), 8));
    byte[] checkpoint = Files.readAllBytes(dir.resolve(EmoBank.CHECKPOINT));
    BankCorruptException e = assertThrows(BankCorruptException.class, () -> EmoBank.open(dir));
    assertTrue(
        e.getMessage().contains(seen.getFileName().toString())
            && e.getMessage().contains("counts 2"),
        e.getMessage());
    assertArrayEquals(checkpoint, Files.readAllBytes(dir.resolve(EmoBank.CHECKPOINT)));
  }

  @Test
  void aCommitWithoutStateKeepsTheLastStateFile() throws Exception {
    try (EmoBank bank = EmoBank.open(dir)) {
      bank.deposit(1, EmotionRow.of(T, "joy", 0.5, 0.6, "a:ok"));
      ObjectNode state = MAPPER.createObjectNode();
      state.put("mood", "calm");
      bank.commit(state);
      bank.deposit(2, EmotionRow.of(T.plusSeconds(60), "joy", 0.5, 0.6, "a:ok"));
      bank.commit(null);
    }
    assertEquals(
        "calm", MAPPER.readTree(dir.resolve(EmoBank.STATE).toFile()).path("mood").asText());
    try (EmoBank bank = EmoBank.open(dir)) {
      assertEquals(2, bank.depositedEvents());
    }
  }

  @Test
  void openingRemovesTemporaryFilesAKilledWriterLeftButNotOnesInTheMaking() throws Exception {
    try (EmoBank bank = EmoBank.open(dir)) {
      bank.deposit(1, EmotionRow.of(T, "joy", 0.5, 0.6, "a:ok"));
      bank.commit(null);
    }
    Path stale = Files.createFile(dir.resolve(".checkpoint.json.123.tmp"));
    Files.setLastModifiedTime(
        stale,
        FileTime.from(Instant.now().minus(BankFiles.STALE_TMP).minus(Duration.ofMinutes(1))));
    Path fresh = Files.createFile(dir.resolve(".state.json.456.tmp"));
    try (EmoBank bank = EmoBank.open(dir)) {
      assertEquals(1, bank.depositedEvents());
    }
    assertFalse(Files.exists(stale));
    assertTrue(Files.exists(fresh));
  }

  @Test
  void aCommittedViewReadsWhatTheLastCommitHoldsAndWritesNothingButState() throws Exception {
    EmoBank writer = EmoBank.open(dir);
    writer.deposit(1, EmotionRow.of(T, "joy", 0.5, 0.6, "a:ok"));
    writer.commit(MAPPER.createObjectNode());
    writer.deposit(2, EmotionRow.of(T.plusSeconds(60), "frustration", 0.9, -0.7, "b:fail"));
    writer.commit(null);
    writer.deposit(
        3,
        EmotionRow.of(T.plusSeconds(120), "frustration", 0.9, -0.7, "b:fail")); // not committed yet
    Path rows = dir.resolve(EmoBank.EMOTIONS);
    writer.close(); // its row is in the file, past the committed length
    long bytes = Files.size(rows);
    byte[] checkpoint = Files.readAllBytes(dir.resolve(EmoBank.CHECKPOINT));

    try (EmoBank view = EmoBank.openCommitted(dir)) {
      assertTrue(view.isCommittedView());
      assertEquals(2, view.liveRows().size());
      assertEquals(2, view.depositedEvents());
      assertTrue(view.isDeposited(2) && !view.isDeposited(3));
      assertFalse(
          view.deposit(3, EmotionRow.of(T.plusSeconds(120), "joy", 0.5, 0.6, "a:ok")).isEmpty());
      assertTrue(view.isDeposited(3));
      assertEquals(
          T.plusSeconds(120), view.lastRow().ts(), "a deposit into the view counts for its reader");
      view.commit(MAPPER.createObjectNode().put("mood", "seen"), T.plusSeconds(3600 * 24 * 30));
    }
    assertEquals(bytes, Files.size(rows), "the uncommitted row is neither read nor cut off");
    assertArrayEquals(checkpoint, Files.readAllBytes(dir.resolve(EmoBank.CHECKPOINT)));
    assertEquals(
        "seen", MAPPER.readTree(dir.resolve(EmoBank.STATE).toFile()).path("mood").asText());
    try (EmoBank reopened = EmoBank.open(dir)) {
      assertEquals(2, reopened.depositedEvents(), "the view deposited nothing");
    }
  }

  @Test
  void aCommittedViewOfABankNotYetCommittedIsEmptyAndCreatesNothing() throws Exception {
    Path none = dir.resolve("not-yet");
    try (EmoBank view = EmoBank.openCommitted(none)) {
      assertEquals(0, view.liveRows().size());
      assertFalse(view.isDeposited(1));
    }
    assertFalse(Files.exists(none));
  }

  private Path onlySeenFile() throws Exception {
    try (java.util.stream.Stream<Path> files = Files.list(dir)) {
      List<Path> seen =
          files.filter(f -> f.getFileName().toString().matches("seen-\\d+\\.bin")).toList();
      assertEquals(1, seen.size(), seen.toString());
      return seen.get(0);
    }
  }
}
