package dev.vigil.kafka;

import static dev.vigil.kafka.KafkaProcess.PATIENCE;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.observe.EventJson;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole fleet path under broker faults, as one history (docs/KAFKA.md): a queue shipped to a
 * topic by {@code ship}, the topic shared by two {@code watch} instances of one group, each client
 * reaching the broker through a {@link Link} of its own. While events keep coming, the network is
 * paused, the broker is stopped and started again, one instance is cut off until the other has
 * taken its agent over and then comes back, and {@code ship} is cut off. Afterwards the history is
 * checked: every event of the queue is in the topic once, every deposit is in the bank journal
 * once, and each agent's latest report counts all its events.
 */
class BrokerFaultsIT {
  private static final String TOPIC = "faults.events";
  private static final int PER_STEP = 40;

  static Link shipLink;
  static Link linkA;
  static Link linkB;
  static TestBroker broker;

  @TempDir Path tmp;

  @BeforeAll
  static void startBroker() throws IOException {
    shipLink = Link.open();
    linkA = Link.open();
    linkB = Link.open();
    broker = TestBroker.startBehindLinks(2, shipLink, linkA, linkB);
  }

  @AfterAll
  static void stopBroker() {
    broker.close();
    shipLink.close();
    linkA.close();
    linkB.close();
  }

  private KafkaProcess watch(String name, Link link) throws IOException {
    return KafkaProcess.groupWatch(
        tmp, name, TestBroker.bootstrap(link), TOPIC, "g-faults", "--every", "1s");
  }

  /** Lines of {@code text} that contain {@code part}. */
  private static long lines(String text, String part) {
    return text.lines().filter(l -> l.contains(part)).count();
  }

  @Test
  void everyEventIsShippedOnceAndDepositedOnceThroughPausesARestartAndCutOffs() throws Exception {
    broker.createTopic(TOPIC, 2);
    List<String> agents = Fleet.agentsOnTwoPartitions();
    String[] names = agents.toArray(String[]::new);
    Path queue = tmp.resolve("queue");
    TestEvents.append(queue, 0, PER_STEP, names);
    long sent = PER_STEP;
    try (KafkaProcess ship =
            KafkaProcess.start(
                tmp,
                "ship",
                "ship",
                "--queue",
                queue.toString(),
                "--bootstrap",
                TestBroker.bootstrap(shipLink),
                "--topic",
                TOPIC);
        KafkaProcess a = watch("a", linkA);
        KafkaProcess b = watch("b", linkB)) {
      await()
          .atMost(PATIENCE)
          .until(
              () ->
                  Fleet.latestReports(broker).keySet().containsAll(agents)
                      && a.stdout().contains(" pass trigger=")
                      && b.stdout().contains(" pass trigger="));

      // 1. the network pauses (a broker frozen): held until ship has given a send up
      pauseAll();
      TestEvents.append(queue, sent, sent + PER_STEP, names);
      sent += PER_STEP;
      await().atMost(PATIENCE).until(() -> lines(ship.stderr(), "cannot be reached") >= 1);
      resumeAll();
      await().atMost(PATIENCE).until(() -> lines(ship.stderr(), "reached again") >= 1);

      // 2. the broker stops and starts again with its logs
      broker.stopBroker();
      try {
        TestEvents.append(queue, sent, sent + PER_STEP, names);
        sent += PER_STEP;
        await().atMost(PATIENCE).until(() -> lines(ship.stderr(), "cannot be reached") >= 2);
      } finally {
        broker.startBroker();
      }
      await().atMost(PATIENCE).until(() -> lines(ship.stderr(), "reached again") >= 2);

      // 3. instance a is cut off until b has taken both partitions, then comes back
      long takenBefore = lines(b.stdout(), "assigned partitions [0, 1]");
      linkA.cut();
      TestEvents.append(queue, sent, sent + PER_STEP, names);
      sent += PER_STEP;
      await()
          .atMost(PATIENCE)
          .until(() -> lines(b.stdout(), "assigned partitions [0, 1]") > takenBefore);
      linkA.heal();

      // 4. ship is cut off, and reconnects
      shipLink.cut();
      TestEvents.append(queue, sent, sent + PER_STEP, names);
      sent += PER_STEP;
      await().atMost(PATIENCE).until(() -> lines(ship.stderr(), "cannot be reached") >= 3);
      shipLink.heal();

      long all = sent;
      await()
          .atMost(PATIENCE.multipliedBy(2))
          .until(
              () -> {
                Map<String, JsonNode> latest = Fleet.latestReports(broker);
                return agents.stream().allMatch(agent -> Fleet.total(latest, agent) == all);
              });
      assertEquals(0, ship.sigterm(), ship.stderr());
      assertEquals(0, a.sigterm(), a.stderr());
      assertEquals(0, b.sigterm(), b.stderr());
    }

    Map<String, Integer> expected = new TreeMap<>();
    for (String agent : agents) {
      expected.put(agent, (int) sent);
    }
    List<String> shipped = shippedIds();
    Map<String, Integer> journaled = new TreeMap<>(Fleet.journaled(broker, TOPIC));
    Map<String, JsonNode> latest = Fleet.latestReports(broker);
    long total = sent;
    assertAll(
        () ->
            assertEquals(
                2 * total,
                new HashSet<>(shipped).size(),
                "every event of the queue is in the topic"),
        () -> assertEquals(List.of(), twice(shipped), "no event is in the topic twice"),
        () -> assertEquals(expected, journaled, "every event deposited once"),
        () -> {
          for (String agent : agents) {
            assertEquals(total, latest.get(agent).path("events_used").asLong(), agent);
          }
        });
  }

  /** The entries of {@code ids} that occur more than once. */
  private static List<String> twice(List<String> ids) {
    Map<String, Long> counts = new TreeMap<>();
    ids.forEach(id -> counts.merge(id, 1L, Long::sum));
    return counts.entrySet().stream().filter(e -> e.getValue() > 1).map(Map.Entry::getKey).toList();
  }

  private static void pauseAll() {
    shipLink.pause();
    linkA.pause();
    linkB.pause();
  }

  private static void resumeAll() {
    shipLink.resume();
    linkA.resume();
    linkB.resume();
  }

  /** The (agent, seq) of each record of the topic, in partition order. */
  private static List<String> shippedIds() throws IOException {
    List<String> ids = new java.util.ArrayList<>();
    for (ConsumerRecord<String, String> r : broker.readAll(TOPIC)) {
      ids.add(r.key() + "/" + EventJson.mapper().readTree(r.value()).get("seq").asLong());
    }
    return ids;
  }
}
