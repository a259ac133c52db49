package dev.vigil.kafka;

import static dev.vigil.kafka.KafkaProcess.PATIENCE;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.observe.EventJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code ship} against a real KRaft broker (docs/KAFKA.md): it forwards a queue as event JSON keyed
 * by agent, resumes without sending anything twice (after its position file too), and loses nothing
 * while the broker is down.
 */
class ShipIT {
  static TestBroker broker;

  @TempDir Path tmp;

  @BeforeAll
  static void startBroker() throws IOException {
    broker = TestBroker.start(2);
  }

  @AfterAll
  static void stopBroker() {
    broker.close();
  }

  private KafkaProcess ship(String name, Path queue, String topic) throws IOException {
    return KafkaProcess.start(
        tmp,
        name,
        "ship",
        "--queue",
        queue.toString(),
        "--bootstrap",
        broker.bootstrap(),
        "--topic",
        topic);
  }

  /** The (agent, seq) of each record, checking that it is the event's JSON keyed by its agent. */
  private static List<String> shipped(String topic) {
    return broker.readAll(topic).stream().map(ShipIT::eventId).toList();
  }

  private static String eventId(ConsumerRecord<String, String> r) {
    try {
      JsonNode n = EventJson.mapper().readTree(r.value());
      assertEquals(n.get("agent").asText(), r.key(), "the key is the agent");
      assertEquals(
          EventJson.write(TestEvents.call(r.key(), n.get("seq").asLong())),
          r.value(),
          "the value is the event's JSON line");
      return r.key() + "/" + n.get("seq").asLong();
    } catch (IOException e) {
      throw new AssertionError("not JSON: " + r.value(), e);
    }
  }

  @Test
  void forwardsTheQueueAndRestartedSendsNothingTwice() throws Exception {
    broker.createTopic("ship.once", 2);
    Path queue = tmp.resolve("queue");
    TestEvents.append(queue, 0, 150, "robin", "wren");
    try (KafkaProcess ship = ship("ship-1", queue, "ship.once")) {
      await().atMost(PATIENCE).until(() -> broker.readAll("ship.once").size() == 300);
      assertEquals(0, ship.sigterm());
      assertTrue(ship.stdout().contains(" ship stopped: 300 events shipped"), ship.stdout());
    }
    assertTrue(
        Files.exists(tmp.resolve("queue.ship-ship.once.json")),
        "the position is kept beside the queue");
    TestEvents.append(queue, 150, 250, "robin", "wren");
    try (KafkaProcess ship = ship("ship-2", queue, "ship.once")) {
      assertTrue(ship.stdout().contains("resuming after excerpt"), ship.stdout());
      await().atMost(PATIENCE).until(() -> broker.readAll("ship.once").size() >= 500);
      assertEquals(0, ship.sigterm());
      assertTrue(ship.stdout().contains(" ship stopped: 200 events shipped"), ship.stdout());
    }
    List<String> ids = shipped("ship.once");
    assertEquals(500, ids.size(), "every event once, none twice");
    assertEquals(500, new HashSet<>(ids).size());
  }

  /**
   * A ship killed after Kafka committed a batch but before it wrote its position file: the file is
   * behind, and the restarted ship resumes after the batch committed in the ledger instead.
   */
  @Test
  void aPositionFileBehindKafkaIsOvertakenByTheLedgerAndNothingIsSentTwice() throws Exception {
    broker.createTopic("ship.ledger", 2);
    Path queue = tmp.resolve("queue");
    TestEvents.append(queue, 0, 100, "robin", "wren");
    Path file = tmp.resolve("queue.ship-ship.ledger.json");
    try (KafkaProcess ship = ship("ship-a", queue, "ship.ledger")) {
      await().atMost(PATIENCE).until(() -> broker.readAll("ship.ledger").size() == 200);
      assertEquals(0, ship.sigterm());
    }
    Files.delete(file); // as if killed before its first write
    TestEvents.append(queue, 100, 130, "robin", "wren");
    try (KafkaProcess ship = ship("ship-b", queue, "ship.ledger")) {
      await().atMost(PATIENCE).until(() -> broker.readAll("ship.ledger").size() >= 260);
      assertTrue(ship.stdout().contains("from the start"), ship.stdout());
      assertTrue(
          ship.stdout().contains("the last one committed in ship.ledger.ship"), ship.stdout());
      assertEquals(0, ship.sigterm());
      assertTrue(ship.stdout().contains(" ship stopped: 60 events shipped"), ship.stdout());
    }
    List<String> ids = shipped("ship.ledger");
    assertEquals(260, new HashSet<>(ids).size(), "every event");
    assertEquals(260, ids.size(), "none twice");
  }

  @Test
  void losesNothingWhileTheBrokerIsDown() throws Exception {
    broker.createTopic("ship.outage", 2);
    Path queue = tmp.resolve("queue");
    TestEvents.append(queue, 0, 50, "robin", "wren");
    try (KafkaProcess ship = ship("ship-outage", queue, "ship.outage")) {
      await().atMost(PATIENCE).until(() -> broker.readAll("ship.outage").size() == 100);
      broker.stopBroker();
      try {
        TestEvents.append(queue, 50, 120, "robin", "wren");
        await()
            .atMost(PATIENCE)
            .until(() -> ship.stderr().contains("cannot be reached or refuses"));
      } finally {
        broker.startBroker();
      }
      Set<String> all = new TreeSet<>();
      for (long s = 0; s < 120; s++) {
        all.add("robin/" + s);
        all.add("wren/" + s);
      }
      await().atMost(PATIENCE).until(() -> new HashSet<>(shipped("ship.outage")).containsAll(all));
      await().atMost(PATIENCE).until(() -> ship.stderr().contains("reached again"));
      assertEquals(0, ship.sigterm());
      assertEquals(all, new TreeSet<>(shipped("ship.outage")), "nothing lost, nothing foreign");
    }
  }

  @Test
  void unreachableBootstrapIsOneClearLineAndSigtermExitsZero() throws Exception {
    Path queue = tmp.resolve("queue");
    TestEvents.append(queue, 0, 5, "robin");
    int closed;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      closed = s.getLocalPort();
    }
    try (KafkaProcess ship =
        KafkaProcess.start(
            tmp,
            "ship-nowhere",
            "ship",
            "--queue",
            queue.toString(),
            "--bootstrap",
            "127.0.0.1:" + closed)) {
      await()
          .atMost(PATIENCE)
          .until(
              () ->
                  ship.stderr()
                      .contains("Kafka at 127.0.0.1:" + closed + " cannot be reached or refuses"));
      assertEquals(
          1,
          ship.stderr().lines().filter(l -> l.contains("cannot be reached")).count(),
          "one line a minute, not one per attempt:\n" + ship.stderr());
      assertEquals(0, ship.sigterm());
      assertTrue(
          ship.stdout().contains(" ship stopped: 0 events shipped; position none kept"),
          ship.stdout());
    }
  }

  @Test
  void anUnknownTopicIsSaidAndRetried() throws Exception {
    Path queue = tmp.resolve("queue");
    TestEvents.append(queue, 0, 5, "robin");
    try (KafkaProcess ship = ship("ship-unknown", queue, "no.such.topic")) {
      await().atMost(PATIENCE).until(() -> ship.stderr().contains("no.such.topic"));
      assertEquals(0, ship.sigterm());
    }
  }
}
