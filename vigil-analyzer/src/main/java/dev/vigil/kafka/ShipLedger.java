package dev.vigil.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Where each {@code ship} stands, kept in Kafka itself: the topic {@code <topic>.ship} (one
 * partition, compacted, key = the ship's id) holds, for every batch, the index of its last excerpt
 * and the events shipped so far, written in the same transaction as the batch's events. So a batch
 * and its position are committed together or not at all, and a ship that reconnects after a failure
 * whose outcome it cannot know (a commit that timed out, bytes held in a paused network and
 * delivered later) reads here what was committed and resumes after it: nothing is shipped twice.
 */
final class ShipLedger {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** A position committed in the ledger. */
  record Committed(long index, long shipped) {}

  private final String bootstrap;
  private final String topic;

  /** The ledger of the ships that write {@code eventsTopic}. */
  ShipLedger(String bootstrap, String eventsTopic) {
    this.bootstrap = bootstrap;
    this.topic = eventsTopic + ".ship";
  }

  String topic() {
    return topic;
  }

  /**
   * Creates the ledger's topic when it is missing, replicated as the events' topic is.
   *
   * @return false when the events' topic does not exist (nothing is created then)
   */
  boolean ensure(Admin admin, String eventsTopic)
      throws ExecutionException, InterruptedException, TimeoutException {
    GroupTopics.Shape events = GroupTopics.shape(admin, eventsTopic);
    if (events == null) {
      return false;
    }
    Set<String> names =
        admin.listTopics().names().get(KafkaClients.REQUEST_TIMEOUT_MS, TimeUnit.MILLISECONDS);
    if (names.contains(topic)) {
      return true;
    }
    NewTopic ledger =
        new NewTopic(topic, 1, events.replication())
            .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
    try {
      admin
          .createTopics(List.of(ledger))
          .all()
          .get(KafkaClients.REQUEST_TIMEOUT_MS, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw e; // another ship created it first: fine
      }
    }
    return true;
  }

  /**
   * The last position committed by the ship {@code shipId}, or null when it has none; waits for a
   * transaction still open on the ledger to end ({@link CommittedRecords}).
   */
  Committed read(String shipId) throws IOException {
    Committed[] last = {null};
    CommittedRecords.read(
        bootstrap,
        "vigil-ship-ledger",
        topic,
        List.of(0),
        r -> {
          if (shipId.equals(r.key())) {
            JsonNode n = MAPPER.readTree(r.value());
            last[0] = new Committed(n.path("index").asLong(), n.path("events_shipped").asLong());
          }
        });
    return last[0];
  }

  /** The record that commits {@code index} for {@code shipId} with the batch it ends. */
  ProducerRecord<String, String> entry(String shipId, String queue, long index, long shipped) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("queue", queue);
    n.put("index", index);
    n.put("events_shipped", shipped);
    return new ProducerRecord<>(topic, 0, shipId, n.toString());
  }
}
