package dev.vigil.kafka;

import static dev.vigil.kafka.KafkaProcess.PATIENCE;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code watch --bootstrap} against a real KRaft broker (docs/KAFKA.md): two instances of one group
 * share two agents; one is killed with SIGKILL in the middle of the stream and the other takes its
 * agent over with the bank rebuilt from Kafka; every event is deposited exactly once.
 */
class GroupWatchIT {
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

  private KafkaProcess watch(String name, String topic, String... more) throws IOException {
    return KafkaProcess.groupWatch(tmp, name, broker.bootstrap(), topic, "g-" + topic, more);
  }

  @Test
  void anInstanceKilledHandsItsAgentWithItsBankToTheOtherExactlyOnce() throws Exception {
    String topic = "fleet.events";
    broker.createTopic(topic, 2);
    List<String> agents = Fleet.agentsOnTwoPartitions();
    for (String agent : agents) {
      Fleet.send(broker, topic, agent, 0, 60);
    }
    try (KafkaProcess a = watch("a", topic, "--every", "1s");
        KafkaProcess b = watch("b", topic, "--every", "1s")) {
      // each instance owns one agent and has run passes over it
      await()
          .atMost(PATIENCE)
          .until(
              () ->
                  Fleet.latestReports(broker).keySet().containsAll(agents)
                      && a.stdout().contains(" pass trigger=")
                      && b.stdout().contains(" pass trigger="));
      for (String agent : agents) {
        Fleet.send(broker, topic, agent, 60, 120);
      }
      a.sigkill(); // mid-stream: whatever a had deposited but not committed is aborted with its
      // transaction
      for (String agent : agents) {
        Fleet.send(broker, topic, agent, 120, 200);
      }
      await()
          .atMost(PATIENCE)
          .until(
              () -> {
                Map<String, JsonNode> latest = Fleet.latestReports(broker);
                return agents.stream().allMatch(agent -> Fleet.total(latest, agent) == 200);
              });
      assertTrue(
          b.stdout().lines().anyMatch(l -> l.contains("assigned partitions [0, 1]")), b.stdout());
      Map<String, JsonNode> latest = Fleet.latestReports(broker);
      for (String agent : agents) {
        assertEquals(
            200,
            latest.get(agent).path("events_used").asLong(),
            "the pass after the rebalance sees the agent's whole history: " + agent);
      }
      assertEquals(0, b.sigterm());
      assertTrue(b.stdout().contains(" watch stopped: "), b.stdout());
    }
    // the journal holds every event of each agent exactly once
    Map<String, Integer> journaled = Fleet.journaled(broker, topic);
    assertEquals(Map.of(agents.get(0), 200, agents.get(1), 200), journaled);
  }

  @Test
  void anUnknownTopicIsAwaitedAndARecordThatIsNotAnEventIsSkippedAndCounted() throws Exception {
    String topic = "late.events";
    try (KafkaProcess w = watch("late", topic, "--after-events", "3")) {
      await()
          .atMost(PATIENCE)
          .until(() -> w.stderr().contains("topic " + topic + " does not exist"));
      broker.createTopic(topic, 1);
      broker.produce(topic, "ouzel", "this is not an event");
      Fleet.send(broker, topic, "ouzel", 0, 3);
      await().atMost(PATIENCE).until(() -> Fleet.total(Fleet.latestReports(broker), "ouzel") == 3);
      assertTrue(w.stdout().contains("not a Vigil event"), w.stdout());
      assertEquals(0, w.sigterm());
      assertTrue(w.stdout().contains("1 records skipped (not events)"), w.stdout());
      assertEquals(
          1,
          Fleet.latestReports(broker).get("ouzel").path("kafka").path("records_skipped").asLong());
    }
  }

  @Test
  void unreachableBootstrapIsSaidAndSigtermExitsZero() throws Exception {
    int closed;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      closed = s.getLocalPort();
    }
    try (KafkaProcess w =
        KafkaProcess.start(
            tmp,
            "nowhere",
            "watch",
            "--bootstrap",
            "127.0.0.1:" + closed,
            "--out",
            tmp.resolve("nowhere").toString())) {
      await().atMost(PATIENCE).until(() -> w.stderr().contains("cannot be reached or refuses"));
      assertEquals(0, w.sigterm());
    }
  }
}
