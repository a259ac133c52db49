package dev.vigil.it;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.observe.Event;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The queue on a file system that fills, or that is read-only: the application's calls all return
 * normally and it exits as without the agent; the agent counts what it cannot write, says so in one
 * line, and when space comes back writes a {@code vigil.dropped} event and goes on. Runs on a small
 * tmpfs, so only where this process may mount one (root); skipped elsewhere, with the reason.
 */
class FullDiskIT {
  private static final String INCLUDE = "methods.include=dev.vigil.it.apps.DiskFullApp$Tool[*]";

  @TempDir Path tmp;

  private SmallFilesystem fs;
  private Process child;

  @AfterEach
  void cleanUp() throws Exception {
    if (child != null && child.isAlive()) {
      child.destroyForcibly().waitFor(1, TimeUnit.MINUTES);
    }
    if (fs != null) {
      fs.close();
    }
  }

  @Test
  void aFillingDiskIsCountedSaidOnceAndWritingResumesWhenSpaceReturns() throws Exception {
    fs = SmallFilesystem.mount(tmp.resolve("fs"), "8m");
    Path queue = fs.dir().resolve("queue");
    // 2 MiB free: the 3,000 calls' events (3 MiB) soon reach the 1 MiB Vigil leaves free; once the
    // filler is gone, there is room for them all
    fs.fill(2L << 20);
    Path control = Files.createDirectories(tmp.resolve("control"));
    Path out = tmp.resolve("out.txt");
    Path err = tmp.resolve("err.txt");
    List<String> cmd = new ArrayList<>();
    cmd.add(ChildJvm.java());
    cmd.add("-Dvigil.stderr.interval-ms=" + TimeUnit.DAYS.toMillis(1)); // one line, however slow
    cmd.add(
        "-javaagent:"
            + ChildJvm.agentJar().toAbsolutePath()
            + "=queue.dir="
            + queue
            + ","
            + INCLUDE);
    cmd.add("-cp");
    cmd.add(ChildJvm.applicationClassPath());
    cmd.add("dev.vigil.it.apps.DiskFullApp");
    cmd.add(control.toString());
    cmd.add("3000");
    child =
        new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();

    await()
        .atMost(Duration.ofMinutes(5))
        .until(() -> Files.readString(err, StandardCharsets.UTF_8).contains("is full"));
    fs.free();
    Files.createFile(control.resolve("freed"));
    // Vigil finds the space again: it writes how many events it lost, and the next events
    await()
        .atMost(Duration.ofMinutes(5))
        .until(
            () -> {
              List<Event> events = ChildJvm.readQueue(queue);
              int dropped = indexOfKind(events, "vigil.dropped");
              return dropped >= 0 && dropped < events.size() - 1;
            });
    Files.createFile(control.resolve("stop"));
    assertTrue(child.waitFor(5, TimeUnit.MINUTES), "the application ends");

    String stdout = Files.readString(out, StandardCharsets.UTF_8);
    String stderr = Files.readString(err, StandardCharsets.UTF_8);
    assertEquals(0, child.exitValue(), stderr);
    assertTrue(stdout.contains("all calls returned normally"), stdout);
    List<String> lines = stderr.lines().toList();
    assertTrue(lines.stream().allMatch(l -> l.startsWith("[vigil] events are being lost")), stderr);
    assertEquals(1, lines.size(), stderr);
    assertTrue(lines.get(0).contains("the file system of the queue " + queue + " is full"), stderr);
    assertTrue(lines.get(0).contains("the application is not affected"), stderr);

    List<Event> events = ChildJvm.readQueue(queue);
    long lost = 0;
    int recorded = 0;
    int previousArg = -1;
    for (int i = 0; i < events.size(); i++) {
      Event e = events.get(i);
      assertEquals(i + 1, e.seq(), "seq is contiguous over the events written");
      if (e.kind().equals("vigil.dropped")) {
        assertTrue(e.payload().path("reason").asText().contains("is full"), e.payload().toString());
        lost += e.payload().path("count").asLong();
        assertEquals(lost, e.payload().path("total").asLong());
      } else {
        int arg = e.payload().path("args").path("i").asInt(-1);
        assertTrue(arg > previousArg, "calls in order: " + e);
        previousArg = arg;
        recorded++;
      }
    }
    long calls = Long.parseLong(stdout.replaceAll("(?s).*calls: (\\d+).*", "$1"));
    assertTrue(lost > 0, "events were lost while the disk was full");
    assertEquals(calls, recorded + lost, "every call is either in the queue or counted as lost");
  }

  @Test
  void aReadOnlyFileSystemUnderANewQueueChangesNothingForTheApplication() throws Exception {
    fs = SmallFilesystem.mount(tmp.resolve("fs"), "1m");
    fs.readOnly();
    Path queue = fs.dir().resolve("queue");
    ChildJvm.Run run = sameAsWithout(queue);
    assertTrue(run.stderr().contains(queue.toString()), run.stderr());
    assertTrue(Files.notExists(queue));
  }

  @Test
  void aQueueWhoseFileSystemTurnedReadOnlyIsLeftAsItWas() throws Exception {
    fs = SmallFilesystem.mount(tmp.resolve("fs"), "4m");
    Path queue = fs.dir().resolve("queue");
    ChildJvm.Run first =
        ChildJvm.run(
            ChildJvm.java(),
            "queue.dir=" + queue + ",methods.include=dev.vigil.it.apps.HostSafetyApp$Service[*]",
            ChildJvm.applicationClassPath(),
            "dev.vigil.it.apps.HostSafetyApp",
            "plain");
    assertEquals(3, first.exit(), first.stderr());
    List<Event> before = ChildJvm.readQueue(queue);
    assertEquals(2, before.size());
    fs.readOnly();
    ChildJvm.Run run = sameAsWithout(queue);
    assertTrue(run.stderr().contains(queue.toString()), run.stderr());
    assertEquals(before, ChildJvm.readQueue(queue), "read back as it was");
  }

  private static int indexOfKind(List<Event> events, String kind) {
    for (int i = 0; i < events.size(); i++) {
      if (events.get(i).kind().equals(kind)) {
        return i;
      }
    }
    return -1;
  }

  /** Runs HostSafetyApp with and without the agent: the same output, one line of Vigil's. */
  private static ChildJvm.Run sameAsWithout(Path queue) throws Exception {
    String cp = ChildJvm.applicationClassPath();
    String app = "dev.vigil.it.apps.HostSafetyApp";
    ChildJvm.Run without = ChildJvm.run(ChildJvm.java(), null, cp, app, "plain");
    ChildJvm.Run with =
        ChildJvm.run(
            ChildJvm.java(),
            "queue.dir=" + queue + ",methods.include=dev.vigil.it.apps.HostSafetyApp$Service[*]",
            cp,
            app,
            "plain");
    assertEquals(without.exit(), with.exit(), with.stderr());
    assertEquals(without.stdout(), with.stdout());
    assertEquals(1, with.stderrLines().size(), with.stderr());
    assertEquals(1, with.vigilLines().size(), with.stderr());
    return with;
  }
}
