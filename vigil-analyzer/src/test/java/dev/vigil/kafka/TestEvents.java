package dev.vigil.kafka;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventJson;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import java.nio.file.Path;
import java.time.Instant;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;

/**
 * Tool-call events of the Kafka tests, each distinct (its own seq and ts), appended to a real
 * queue.
 */
final class TestEvents {
  static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");

  private TestEvents() {}

  /** Tool call number {@code seq} of {@code agent}: every fifth fails. */
  static Event call(String agent, long seq) {
    ObjectNode payload = EventJson.mapper().createObjectNode();
    payload.put("tool", "setReminder");
    payload.put("result", "Reminder set " + seq);
    payload.put("duration_ms", 2.5);
    String status = seq % 5 == 4 ? "fail" : "ok";
    return Event.of(
            T0.plusMillis(seq * 1000 + agent.hashCode() % 997),
            "tool.set_reminder",
            status,
            payload)
        .withOrigin(agent, seq, 4242L, "main");
  }

  /**
   * Appends calls {@code from} to {@code to - 1} of each agent, interleaved, to the queue (created
   * if missing).
   */
  static void append(Path queue, long from, long to, String... agents) {
    try (ChronicleQueue q = EventQueues.openForWriting(queue);
        ExcerptAppender a = q.createAppender()) {
      for (long s = from; s < to; s++) {
        for (String agent : agents) {
          EventWire.append(a, call(agent, s));
        }
      }
    }
  }
}
