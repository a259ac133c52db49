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
 * {@code OUT/watch.json}. Twenty calls made before {@code watch} starts are its backlog: reading them warms the
 * deposit path up, and they are not measured (they were not live).
 */
class WatchDelayIT {
  static final int WARM_UP = 20;
  static final int CALLS = 400;
  private static final Pattern STOPPED = Pattern.compile("delay median=([0-9.]+)ms p99=([0-9.]+)ms n=(\\d+)");

  @TempDir
  Path tmp;

  /** Runs the calls beside a watch with {@code --after-events afterEvents}; returns {median, p99} in ms. */
  private double[] measure(int afterEvents) throws Exception {
    Path queue = tmp.resolve("queue");
    Path bank = tmp.resolve("emobank");
    Path out = tmp.resolve("out");
    try (ChronicleQueue q = EventQueues.openForWriting(queue)) {
      q.createAppender().close();
    }
    String stopped;
    try (var agent = new LiveProcesses.Agent(queue, "robin", tmp)) {
      agent.call("ok", WARM_UP);
      try (var watch = new LiveProcesses.Watch(tmp, "w", "--queue", queue.toString(), "--emobank", bank.toString(),
          "--out", out.toString(), "--after-events", String.valueOf(afterEvents))) {
        agent.call("pace", CALLS, 5);
        // a pass covers the events deposited when it starts, often a few more than N: at least one pass less
        int passes = Math.max(1, (WARM_UP + CALLS) / afterEvents - 1);
        await().atMost(PATIENCE).until(() -> depositedIn(bank) >= WARM_UP + CALLS
            && watch.passLines().size() >= passes);
        assertEquals(0, watch.sigterm(), watch.stderr());
        stopped = watch.stdout().lines().filter(l -> l.contains(" watch stopped: ")).findFirst().orElseThrow();
      }
    }
    Matcher m = STOPPED.matcher(stopped);
    assertTrue(m.find(), stopped);
    assertEquals(CALLS, Integer.parseInt(m.group(3)), "the live calls are measured, the backlog is not: " + stopped);
    double median = Double.parseDouble(m.group(1));
    double p99 = Double.parseDouble(m.group(2));
    assertTrue(median <= p99, stopped);
    assertTrue(median < 1000, "appraised within a second of the append, typically: " + stopped);
    JsonNode delay = json(out.resolve("watch.json")).get("append_to_appraisal");
    assertTrue(delay.get("events").asInt() > 0, delay.toString());
    return new double[] {median, p99};
  }

  @Test
  void betweenPassesEachLiveCallIsAppraisedWithinMillisecondsOfItsAppend() throws Exception {
    double[] d = measure(WARM_UP + CALLS);
    System.out.printf("append-to-appraisal delay over %d live tool calls, no pass meanwhile: median %.1f ms, "
        + "p99 %.1f ms%n", CALLS, d[0], d[1]);
  }

  @Test
  void withAPassEveryHundredEventsCallsArrivingDuringAPassWaitForIt() throws Exception {
    double[] d = measure(105);
    System.out.printf("append-to-appraisal delay over %d live tool calls, a pass every 105 events: median %.1f ms, "
        + "p99 %.1f ms%n", CALLS, d[0], d[1]);
  }
}
