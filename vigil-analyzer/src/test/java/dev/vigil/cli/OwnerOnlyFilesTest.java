package dev.vigil.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.observe.Event;
import dev.vigil.observe.EventJson;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bank, the reports and every directory a pass creates are its user's alone (docs/SECURITY.md):
 * directories {@code 0700}, files {@code 0600}; they hold captured arguments, results and the
 * user's words.
 */
class OwnerOnlyFilesTest {
  @TempDir Path tmp;

  @Test
  void theBankAndTheReportsAreOwnerOnly() throws Exception {
    Assumptions.assumeTrue(
        tmp.getFileSystem().supportedFileAttributeViews().contains("posix"),
        "a file system without POSIX permissions");
    StringBuilder events = new StringBuilder();
    Instant t0 = Instant.parse("2026-11-22T08:00:00Z");
    for (int i = 0; i < 20; i++) {
      var payload = EventJson.mapper().createObjectNode().put("i", i);
      events
          .append(
              EventJson.write(
                  Event.of(t0.plusSeconds(60L * i), "tool.t", i % 3 == 0 ? "fail" : "ok", payload)))
          .append('\n');
    }
    Path input = Files.writeString(tmp.resolve("events.jsonl"), events.toString());
    Path prompt =
        Files.writeString(
            tmp.resolve("system-prompt.txt"),
            "## BEGIN_CORE_IDENTITY\nYou are a test agent.\n## END_CORE_IDENTITY\n"
                + "## BEGIN_ADAPTIVE_SECTION\n(none)\n## END_ADAPTIVE_SECTION\n");
    Path bank = tmp.resolve("state").resolve("bank");
    Path out = tmp.resolve("reports").resolve("out");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit =
        Main.run(
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8),
            "run",
            "--events",
            input.toString(),
            "--emobank",
            bank.toString(),
            "--out",
            out.toString(),
            "--prompt",
            prompt.toString(),
            "--now",
            "2026-11-22T12:00:00Z");
    assertEquals(0, exit, err.toString(StandardCharsets.UTF_8));
    for (Path dir : new Path[] {tmp.resolve("state"), bank, tmp.resolve("reports"), out}) {
      assertEquals("rwx------", mode(dir), dir.toString());
    }
    // every directory created inside them too (prompts, proposals): what is in them is
    // unreachable to others whatever its own mode
    List<Path> inside = new ArrayList<>();
    for (Path root : new Path[] {bank, out}) {
      try (Stream<Path> all = Files.walk(root)) {
        all.filter(Files::isDirectory).forEach(inside::add);
      }
    }
    assertTrue(
        inside.stream().anyMatch(d -> d.getFileName().toString().equals("prompts")),
        "the pass wrote its prompt versions: " + inside);
    for (Path dir : inside) {
      assertEquals("rwx------", mode(dir), dir.toString());
    }
    for (Path dir : new Path[] {bank, out}) {
      try (Stream<Path> files = Files.list(dir)) {
        for (Path f : (Iterable<Path>) files::iterator) {
          if (Files.isRegularFile(f)) {
            assertEquals("rw-------", mode(f), f.toString());
          }
        }
      }
    }
  }

  private static String mode(Path p) throws Exception {
    return PosixFilePermissions.toString(Files.getPosixFilePermissions(p));
  }
}
