package dev.vigil.cli;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.emobank.EmoBank;
import dev.vigil.it.apps.HeldPassApp;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventJson;
import java.io.BufferedWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A pass killed with SIGKILL after its deposits and before its commit, then rerun with the packaged
 * analyzer: the bank ends as one uninterrupted pass leaves it.
 */
class KillDuringPassIT {
  private static final Path JAR =
      Path.of(System.getProperty("vigil.analyzer.jar", "target/vigil-analyzer.jar"));
  private static final String JAVA =
      Path.of(System.getProperty("java.home"), "bin", "java").toString();
  private static final String NOW = "2026-11-22T12:00:00Z";

  @TempDir Path tmp;

  private Process start(Path events, Path bank) throws Exception {
    return new ProcessBuilder(
            JAVA,
            "-jar",
            JAR.toString(),
            "run",
            "--events",
            events.toString(),
            "--emobank",
            bank.toString(),
            "--out",
            tmp.resolve("out-" + bank.getFileName()).toString(),
            "--now",
            NOW,
            "--limit",
            "1000000")
        .redirectOutput(tmp.resolve("stdout-" + bank.getFileName()).toFile())
        .redirectError(tmp.resolve("stderr-" + bank.getFileName()).toFile())
        .start();
  }

  @Test
  void aPassKilledWhileDepositingThenRerunEndsAsOneUninterruptedPass() throws Exception {
    Path events = tmp.resolve("events.jsonl");
    Instant t0 = Instant.parse("2026-11-22T00:00:00Z");
    String[] statuses = {"ok", "fail", "delay", "queued"};
    try (BufferedWriter w = Files.newBufferedWriter(events)) {
      for (int i = 0; i < 40_000; i++) {
        // distinct causes keep rows from coalescing, so the rows file grows through the whole
        // deposit
        Event e = Event.of(t0.plusMillis(100L * i), "tool.t" + (i % 1000), statuses[i % 4]);
        w.write(EventJson.write(e));
        w.write('\n');
      }
    }
    Path killed = tmp.resolve("killed");
    Path rows = killed.resolve(EmoBank.EMOTIONS);
    Path marker = tmp.resolve("deposited");
    // a pass held after its deposits and before its commit (HeldPassApp), killed there: no race
    // with the machine
    Process p =
        new ProcessBuilder(
                JAVA,
                "-cp",
                System.getProperty(
                    "surefire.test.class.path", System.getProperty("java.class.path")),
                HeldPassApp.class.getName(),
                events.toString(),
                killed.toString(),
                tmp.resolve("out-held").toString(),
                marker.toString(),
                NOW)
            .redirectOutput(tmp.resolve("stdout-held").toFile())
            .redirectError(tmp.resolve("stderr-held").toFile())
            .start();
    await().atMost(Duration.ofMinutes(3)).until(() -> Files.exists(marker) || !p.isAlive());
    assertTrue(
        p.isAlive(),
        "the held pass died before its deposits: " + Files.readString(tmp.resolve("stderr-held")));
    p.destroyForcibly(); // SIGKILL
    p.waitFor(30, TimeUnit.SECONDS);
    assertTrue(Files.size(rows) > 0, "the pass had deposited rows past the committed length");
    long committed =
        new ObjectMapper()
            .readTree(killed.resolve(EmoBank.CHECKPOINT).toFile())
            .get("emotions_bytes")
            .asLong();
    assertEquals(0, committed, "the pass was killed before its commit");
    assertFalse(p.exitValue() == 0, "the pass was killed, not finished");

    Process rerun = start(events, killed);
    assertTrue(rerun.waitFor(180, TimeUnit.SECONDS));
    assertEquals(0, rerun.exitValue(), Files.readString(tmp.resolve("stderr-killed")));

    Path clean = tmp.resolve("clean");
    Process once = start(events, clean);
    assertTrue(once.waitFor(180, TimeUnit.SECONDS));
    assertEquals(0, once.exitValue());

    assertArrayEquals(
        Files.readAllBytes(clean.resolve(EmoBank.EMOTIONS)), Files.readAllBytes(rows));
    try (var files = Files.list(killed)) {
      List<String> names = files.map(f -> f.getFileName().toString()).toList();
      assertTrue(names.stream().anyMatch(n -> n.startsWith("recovered-")), names.toString());
    }
  }
}
