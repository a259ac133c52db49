package dev.vigil.kafka;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * The topics of a group {@code watch}: the events' topic must exist (it is the user's, {@code ship}
 * writes it); the banks' journal (one partition per events partition, compacted: every entry has
 * its own key, so nothing is ever deleted) and {@code vigil.reports} are created when missing.
 */
final class GroupTopics {
  /** The topic each pass's {@code report.json} goes to, key = agent. */
  static final String REPORTS = "vigil.reports";

  private GroupTopics() {}

  /** A topic's partitions and replication factor. */
  record Shape(int partitions, short replication) {}

  /**
   * The shape of {@code topic}, or null when it does not exist.
   *
   * @throws ExecutionException when the cluster cannot be asked
   */
  static Shape shape(Admin admin, String topic)
      throws ExecutionException, InterruptedException, TimeoutException {
    Set<String> names =
        admin.listTopics().names().get(KafkaClients.REQUEST_TIMEOUT_MS, TimeUnit.MILLISECONDS);
    if (!names.contains(topic)) {
      return null;
    }
    TopicDescription d =
        admin
            .describeTopics(List.of(topic))
            .allTopicNames()
            .get(KafkaClients.REQUEST_TIMEOUT_MS, TimeUnit.MILLISECONDS)
            .get(topic);
    return new Shape(d.partitions().size(), (short) d.partitions().get(0).replicas().size());
  }

  /**
   * Creates the journal (with {@code partitions} partitions) and the reports' topic when missing.
   */
  static void ensure(Admin admin, String journal, int partitions, short replication)
      throws ExecutionException, InterruptedException, TimeoutException {
    Set<String> names =
        admin.listTopics().names().get(KafkaClients.REQUEST_TIMEOUT_MS, TimeUnit.MILLISECONDS);
    List<NewTopic> missing = new ArrayList<>();
    if (!names.contains(journal)) {
      missing.add(
          new NewTopic(journal, partitions, replication)
              .configs(
                  Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)));
    }
    if (!names.contains(REPORTS)) {
      missing.add(
          new NewTopic(REPORTS, partitions, replication)
              .configs(
                  Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)));
    }
    if (missing.isEmpty()) {
      return;
    }
    try {
      admin.createTopics(missing).all().get(KafkaClients.REQUEST_TIMEOUT_MS, TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw e; // another instance created it first: fine
      }
    }
  }
}
