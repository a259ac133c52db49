package dev.vigil.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every call is one event, none lost (docs/AGENT.md, "Guarantees and how they are kept"): 16
 * threads calling a tool back to back while another process keeps every core busy. The writer
 * thread falls far behind; the calling threads that find its hand-off full append their own events.
 * Counts only: how long it takes is the machine's business.
 */
class NoLossUnderLoadIT {
  private static final int THREADS = 16;
  private static final int CALLS = 25_000;

  @TempDir Path tmp;

  @Test
  void sixteenThreadsUnderACpuHogLoseNoEvent() throws Exception {
    Path queue = tmp.resolve("queue");
    int cores = Runtime.getRuntime().availableProcessors();
    Process hog =
        new ProcessBuilder(
                ChildJvm.java(),
                "-cp",
                ChildJvm.applicationClassPath(),
                "dev.vigil.it.apps.CpuHog",
                String.valueOf(cores),
                "600")
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    ChildJvm.Run run;
    try {
      BufferedReader hogOut =
          new BufferedReader(new InputStreamReader(hog.getInputStream(), StandardCharsets.UTF_8));
      assertEquals("spinning", hogOut.readLine(), "the CPU hog started");
      run =
          ChildJvm.run(
              ChildJvm.java(),
              "queue.dir=" + queue + ",methods.include=dev.vigil.it.apps.NoLossApp[call]",
              ChildJvm.applicationClassPath(),
              "dev.vigil.it.apps.NoLossApp",
              String.valueOf(THREADS),
              String.valueOf(CALLS));
    } finally {
      hog.getOutputStream().close(); // the hog stops when its stdin closes
      if (!hog.waitFor(30, TimeUnit.SECONDS)) {
        hog.destroyForcibly();
      }
    }
    assertEquals(0, run.exit(), run.stderr());
    assertEquals(List.of(), run.vigilLines(), "no event lost, nothing to say");

    QueueTally tally = QueueTally.of(queue);
    assertEquals(
        Map.of("tool.call", (long) THREADS * CALLS),
        tally.perKind(),
        "every call one event, nothing else");
    assertNull(tally.seqProblem(), "seq strictly increasing in queue order");
    assertEquals(THREADS, tally.perThread().size());
    tally.perThread().forEach((thread, n) -> assertEquals((long) CALLS, n, thread));
  }
}
