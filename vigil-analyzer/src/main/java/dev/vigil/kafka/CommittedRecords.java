package dev.vigil.kafka;

import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads every committed record of some partitions of a topic written in transactions, from their
 * start to their end. The end is the partition's last offset, committed or not: a writer that died
 * inside a transaction leaves it open until the broker aborts it (after its {@code
 * transaction.timeout.ms}), and the read waits for that, so that it never stops short of records a
 * transaction still in flight commits.
 */
final class CommittedRecords {
  /** What a read hands each record to. */
  @FunctionalInterface
  interface Each {
    void record(ConsumerRecord<String, String> r) throws IOException;
  }

  private CommittedRecords() {}

  /**
   * Reads {@code partitions} of {@code topic} through a client named {@code clientId}.
   *
   * @return the number of records read
   */
  static long read(
      String bootstrap, String clientId, String topic, Collection<Integer> partitions, Each each)
      throws IOException {
    if (partitions.isEmpty()) {
      return 0;
    }
    List<TopicPartition> parts =
        partitions.stream().map(p -> new TopicPartition(topic, p)).toList();
    long n = 0;
    try (KafkaConsumer<String, String> uncommitted =
            consumer(bootstrap, clientId, "read_uncommitted");
        KafkaConsumer<String, String> c = consumer(bootstrap, clientId, "read_committed")) {
      Map<TopicPartition, Long> end = uncommitted.endOffsets(parts);
      c.assign(parts);
      c.seekToBeginning(parts);
      while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
        for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
          each.record(r);
          n++;
        }
      }
    }
    return n;
  }

  private static KafkaConsumer<String, String> consumer(
      String bootstrap, String clientId, String isolation) {
    Properties p = KafkaClients.common(bootstrap, clientId);
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    return new KafkaConsumer<>(p);
  }
}
