package dev.vigil.emobank;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmoBankTest {
  private static final Instant T = Instant.parse("2026-11-22T10:00:00Z");
  private static final ObjectMapper MAPPER = new ObjectMapper();

  @TempDir
  Path dir;

  @Test
  void anAmendRowReplacesItsPredecessorForEveryReader() throws Exception {
    try (EmoBank bank = EmoBank.open(dir)) {
      bank.deposit(1, EmotionRow.of(T, "frustration", 0.9, -0.7, "a:fail"));
      bank.deposit(2, EmotionRow.of(T.plusSeconds(60), "frustration", 0.9, -0.7, "a:fail"));
      bank.deposit(3, EmotionRow.of(T.plusSeconds(120), "frustration", 0.9, -0.7, "a:fail"));
      bank.deposit(4, EmotionRow.of(T.plusSeconds(180), "relief", 0.3, 0.6, "a:ok"));
      bank.commit(MAPPER.createObjectNode());
    }
    assertEquals(5, Files.readAllLines(dir.resolve(EmoBank.EMOTIONS)).size()); // row, 2 amends, relief, shadow
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
      assertEquals(List.of(), bank.deposit(7, EmotionRow.of(T, "frustration", 0.9, -0.7, "a:fail")));
      bank.commit(MAPPER.createObjectNode());
    }
    try (EmoBank bank = EmoBank.open(dir)) {
      assertEquals(List.of(), bank.deposit(7, EmotionRow.of(T, "frustration", 0.9, -0.7, "a:fail")));
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
    ObjectNode episodes = Retention.compact(List.of(EmotionRow.of(T, "frustration", 0.9, -0.7, "a:fail")),
        T.plusSeconds(1), Retention.emptyEpisodes()).episodes();
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
}
