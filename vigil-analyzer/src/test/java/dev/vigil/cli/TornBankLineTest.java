package dev.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.emobank.EmoBank;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An {@code emotions.jsonl} whose last line is torn, with the outcomes docs/EMOBANK.md gives: past
 * the committed length (a pass that died while appending), it is moved aside and the bank ends as
 * one uninterrupted pass would have left it; within it (the file cut short outside Vigil), the bank
 * stage fails under its guard naming the file, the pass exits 1 and the bank is left untouched.
 */
class TornBankLineTest {
  private static final Instant T0 = Instant.parse("2026-11-22T08:00:00Z");

  @TempDir Path tmp;

  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private int pass(Path events, Path bank) {
    err.reset();
    return Main.run(
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        "run",
        "--events",
        events.toString(),
        "--emobank",
        bank.toString(),
        "--out",
        tmp.resolve("out").toString(),
        "--now",
        "2026-11-22T12:00:00Z");
  }

  private Path jsonl(String name, int from, int to) throws IOException {
    String[] statuses = {"ok", "fail", "timeout", "ok", "complaint"};
    StringBuilder sb = new StringBuilder();
    for (int i = from; i < to; i++) {
      var payload = EventJson.mapper().createObjectNode().put("i", i);
      sb.append(
              EventJson.write(
                  Event.of(
                      T0.plusSeconds(60L * i),
                      "tool.t" + (i % 3),
                      statuses[i % statuses.length],
                      payload)))
          .append('\n');
    }
    return Files.writeString(tmp.resolve(name), sb.toString());
  }

  private static long committed(Path bank) throws IOException {
    return new ObjectMapper()
        .readTree(bank.resolve(EmoBank.CHECKPOINT).toFile())
        .get("emotions_bytes")
        .asLong();
  }

  @Test
  void aTornLineAfterTheCommitIsMovedAsideAndTheBankEndsAsOneUninterruptedPass() throws Exception {
    Path bank = tmp.resolve("bank");
    assertEquals(0, pass(jsonl("a.jsonl", 0, 40), bank), err.toString(StandardCharsets.UTF_8));
    String torn = "{\"ts\":\"2026-11-22T08:50:00Z\",\"emotion\":\"frustr";
    Files.writeString(bank.resolve(EmoBank.EMOTIONS), torn, StandardOpenOption.APPEND);

    Path second = jsonl("b.jsonl", 40, 80);
    assertEquals(0, pass(second, bank), err.toString(StandardCharsets.UTF_8));
    assertEquals(torn, Files.readString(bank.resolve("recovered-2.jsonl")));
    if (bank.getFileSystem().supportedFileAttributeViews().contains("posix")) {
      assertEquals(
          "rw-------",
          java.nio.file.attribute.PosixFilePermissions.toString(
              Files.getPosixFilePermissions(bank.resolve("recovered-2.jsonl"))),
          "the rows moved aside are as private as the bank's own");
    }

    Path clean = tmp.resolve("clean");
    assertEquals(0, pass(tmp.resolve("a.jsonl"), clean), err.toString(StandardCharsets.UTF_8));
    assertEquals(0, pass(second, clean), err.toString(StandardCharsets.UTF_8));
    assertArrayEquals(
        Files.readAllBytes(clean.resolve(EmoBank.EMOTIONS)),
        Files.readAllBytes(bank.resolve(EmoBank.EMOTIONS)));
  }

  @Test
  void aCommittedLineCutShortFailsTheBankStageAndLeavesTheBankAlone() throws Exception {
    Path bank = tmp.resolve("bank");
    assertEquals(0, pass(jsonl("a.jsonl", 0, 40), bank), err.toString(StandardCharsets.UTF_8));
    Path rows = bank.resolve(EmoBank.EMOTIONS);
    try (FileChannel c = FileChannel.open(rows, StandardOpenOption.WRITE)) {
      c.truncate(committed(bank) - 10); // the last committed row loses its end
    }
    Map<String, byte[]> before = filesOf(bank);

    assertEquals(1, pass(jsonl("b.jsonl", 40, 80), bank));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains("at stage eb_updated"),
        err.toString(StandardCharsets.UTF_8));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains(rows.toString()),
        err.toString(StandardCharsets.UTF_8));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains("cut short"),
        err.toString(StandardCharsets.UTF_8));
    Map<String, byte[]> after = filesOf(bank);
    assertEquals(before.keySet(), after.keySet());
    before.forEach((name, bytes) -> assertArrayEquals(bytes, after.get(name), name));
  }

  private static Map<String, byte[]> filesOf(Path dir) throws IOException {
    Map<String, byte[]> files = new TreeMap<>();
    try (Stream<Path> s = Files.list(dir)) {
      for (Path f : (Iterable<Path>) s::iterator) {
        files.put(f.getFileName().toString(), Files.readAllBytes(f));
      }
    }
    return files;
  }
}
