package dev.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.emobank.EmoBank;
import dev.vigil.it.SmallFilesystem;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventJson;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The EmoBank on a filesystem that fills: the pass fails its bank stage under its guard with
 * nothing half-written (the bank reads back byte for byte as before the pass), and the next pass
 * after the space came back deposits what the failed one could not, exactly once. Runs on a small
 * tmpfs, so only where this process may mount one (root); skipped elsewhere, with the reason.
 */
class BankOnAFullDiskTest {
  private static final Instant T0 = Instant.parse("2026-11-22T08:00:00Z");
  private static final String NOW = "2026-11-22T20:00:00Z";

  @TempDir Path tmp;

  private SmallFilesystem fs;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @AfterEach
  void unmount() throws Exception {
    if (fs != null) {
      fs.close();
    }
  }

  private int pass(Path events, Path bank, Path outDir) {
    out.reset();
    err.reset();
    return Main.run(
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        "run",
        "--events",
        events.toString(),
        "--emobank",
        bank.toString(),
        "--out",
        outDir.toString(),
        "--now",
        NOW);
  }

  /** Events {@code [from, to)} of a varied trace, a minute apart, as a JSONL file. */
  private Path jsonl(String name, int from, int to) throws IOException {
    String[] statuses = {"ok", "fail", "delay", "ok", "timeout", "ok", "complaint"};
    StringBuilder sb = new StringBuilder();
    for (int i = from; i < to; i++) {
      String status = statuses[i % statuses.length];
      var payload = EventJson.mapper().createObjectNode().put("i", i);
      if (status.equals("delay")) {
        payload.put("delayed_by_sec", 60 * (i % 12));
      }
      sb.append(
              EventJson.write(
                  Event.of(T0.plusSeconds(60L * i), "tool.t" + (i % 3), status, payload)))
          .append('\n');
    }
    return Files.writeString(tmp.resolve(name), sb.toString());
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

  private static JsonNode json(Path file) throws IOException {
    return new ObjectMapper().readTree(file.toFile());
  }

  @Test
  void aFullDiskFailsTheBankStageLeavesTheBankAsItWasAndTheNextPassDepositsOnce() throws Exception {
    fs = SmallFilesystem.mount(tmp.resolve("fs"), "1m");
    Path bank = fs.dir().resolve("bank");
    Path outDir = tmp.resolve("out");
    Path first = jsonl("first.jsonl", 0, 40);
    Path second = jsonl("second.jsonl", 40, 440);
    assertEquals(0, pass(first, bank, outDir), err.toString(StandardCharsets.UTF_8));
    Map<String, byte[]> before = filesOf(bank);

    // a few kilobytes left: the pass's rows begin to go out and then the disk is full
    fs.fill(8192);
    assertEquals(
        1,
        pass(second, bank, outDir),
        err.toString(StandardCharsets.UTF_8) + out.toString(StandardCharsets.UTF_8));
    assertTrue(
        err.toString(StandardCharsets.UTF_8).contains("at stage eb_updated")
            && err.toString(StandardCharsets.UTF_8).contains("No space left on device"),
        err.toString(StandardCharsets.UTF_8));
    JsonNode failed = json(outDir.resolve("report.json"));
    assertEquals("eb_updated", failed.at("/internal_thorns/0/stage").asText(), failed.toString());
    assertTrue(failed.at("/rbt/provisional").asBoolean(), failed.toString());
    Map<String, byte[]> after = filesOf(bank);
    assertEquals(before.keySet(), after.keySet(), "no file left behind");
    before.forEach((name, bytes) -> assertArrayEquals(bytes, after.get(name), name));

    // the space comes back: the next pass deposits what the failed one could not, once
    fs.free();
    assertEquals(0, pass(second, bank, outDir), err.toString(StandardCharsets.UTF_8));
    JsonNode recovered = json(outDir.resolve("report.json"));
    assertEquals(400, recovered.get("events_deposited").asInt(), recovered.toString());
    assertEquals(0, recovered.get("internal_thorns").size(), recovered.toString());
    assertEquals(1, recovered.get("internal_thorns_resolved").size(), recovered.toString());
    assertEquals(0, pass(second, bank, outDir), err.toString(StandardCharsets.UTF_8));
    assertEquals(0, json(outDir.resolve("report.json")).get("events_deposited").asInt());

    // and the bank is the one two passes on a roomy disk make
    Path roomy = tmp.resolve("roomy");
    assertEquals(0, pass(first, roomy, tmp.resolve("out2")), err.toString(StandardCharsets.UTF_8));
    assertEquals(0, pass(second, roomy, tmp.resolve("out2")), err.toString(StandardCharsets.UTF_8));
    assertArrayEquals(
        Files.readAllBytes(roomy.resolve(EmoBank.EMOTIONS)),
        Files.readAllBytes(bank.resolve(EmoBank.EMOTIONS)));
    assertEquals(
        json(roomy.resolve(EmoBank.CHECKPOINT)).get("events_deposited"),
        json(bank.resolve(EmoBank.CHECKPOINT)).get("events_deposited"));
  }
}
