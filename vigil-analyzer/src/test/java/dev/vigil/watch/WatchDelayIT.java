package dev.vigil.watch;

import static dev.vigil.watch.LiveProcesses.PATIENCE;
import static dev.vigil.watch.LiveProcesses.depositedIn;
import static dev.vigil.watch.LiveProcesses.json;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.observe.EventQueues;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.openhft.chronicle.queue.ChronicleQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The delay from a tool call's append to its appraisal in the EmoBank (SPEC section 8): an agent under the real
 * javaagent calls a tool every 5 ms while {@code watch} runs; the figures are printed and kept in
 * {@code OUT/watch.json}.
 */
class WatchDelayIT {
  static final int CALLS = 400;
  private static final Pattern STOPPED = Pattern.compile("delay median=([0-9.]+)ms p99=([0-9.]+)ms n=(\\d+)");

  @TempDir
  Path tmp;

  @Test
  void everyLiveCallIsAppraisedWithinMillisecondsOfItsAppend() throws Exception {
    Path queue = tmp.resolve("queue");
    Path bank = tmp.resolve("emobank");
    Path out = tmp.resolve("out");
    try (ChronicleQueue q = EventQueues.openForWriting(queue)) {
      q.createAppender().close();
    }
    String stopped;
    try (var agent = new LiveProcesses.Agent(queue, "robin", tmp);
        var watch = new LiveProcesses.Watch(tmp, "w", "--queue", queue.toString(), "--emobank", bank.toString(),
            "--out", out.toString(), "--after-events", String.valueOf(CALLS))) {
      agent.call("ok", 20); // warm-up: the agent's and the analyzer's first calls load their classes
      agent.call("pace", CALLS - 20, 5);
      await().atMost(PATIENCE).until(() -> watch.passLines().size() == 1);
      assertEquals(0, watch.sigterm(), watch.stderr());
      stopped = watch.stdout().lines().filter(l -> l.contains(" watch stopped: ")).findFirst().orElseThrow();
    }
    assertEquals(CALLS, depositedIn(bank));
    Matcher m = STOPPED.matcher(stopped);
    assertTrue(m.find(), stopped);
    assertEquals(CALLS, Integer.parseInt(m.group(3)), "every call was appended after watch started");
    double median = Double.parseDouble(m.group(1));
    double p99 = Double.parseDouble(m.group(2));
    assertTrue(median <= p99, stopped);
    assertTrue(median < 1000, "appraised within a second of the append, typically: " + stopped);
    JsonNode delay = json(out.resolve("watch.json")).get("append_to_appraisal");
    assertTrue(delay.get("events").asInt() >= CALLS - 1, delay.toString());
    System.out.printf("append-to-appraisal delay over %d live tool calls: median %.1f ms, p99 %.1f ms%n",
        CALLS, median, p99);
  }
}
