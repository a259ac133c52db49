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
 * The banks' journal in Kafka, {@code <topic>.emobank}: partition {@code p} holds the {@link
 * BankRecord}s of the agents of the events' partition {@code p}, written in the same transactions
 * as the consumed offsets. Replaying a partition rebuilds its agents' banks on whichever instance
 * it is assigned to.
 */
final class BankJournal {
  /** What a replay hands each entry to. */
  @FunctionalInterface
  interface Replay {
    void entry(int partition, BankRecord entry) throws IOException;
  }

  private final String bootstrap;
  private final String topic;

  BankJournal(String bootstrap, String topic) {
    this.bootstrap = bootstrap;
    this.topic = topic;
  }

  /** The journal's topic for the events' topic. */
  static String topicFor(String eventsTopic) {
    return eventsTopic + ".emobank";
  }

  String topic() {
    return topic;
  }

  /**
   * Replays the committed entries of these partitions, from their start to their end. The end is
   * the partition's last offset, committed or not: an instance that died inside a transaction
   * leaves it open until the broker aborts it (after {@code transaction.timeout.ms}), and the
   * replay waits for that, so that it never stops short of entries a transaction still in flight
   * commits.
   *
   * @return the number of entries replayed
   */
  long replay(Collection<Integer> partitions, Replay replay) throws IOException {
    if (partitions.isEmpty()) {
      return 0;
    }
    List<TopicPartition> parts =
        partitions.stream().map(p -> new TopicPartition(topic, p)).toList();
    long n = 0;
    try (KafkaConsumer<String, String> uncommitted = consumer("read_uncommitted");
        KafkaConsumer<String, String> c = consumer("read_committed")) {
      Map<TopicPartition, Long> end = uncommitted.endOffsets(parts);
      c.assign(parts);
      c.seekToBeginning(parts);
      while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
        for (ConsumerRecord<String, String> r : c.poll(Duration.ofMillis(200))) {
          replay.entry(r.partition(), BankRecord.fromJson(r.value()));
          n++;
        }
      }
    }
    return n;
  }

  private KafkaConsumer<String, String> consumer(String isolation) {
    Properties p = KafkaClients.common(bootstrap, "vigil-watch-journal");
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
    p.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    return new KafkaConsumer<>(p);
  }
}
