package dev.vigil.kafka;

import java.io.IOException;
import java.util.Collection;

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
   * Replays the committed entries of these partitions, from their start to their end, waiting for
   * any transaction still open on them ({@link CommittedRecords}).
   *
   * @return the number of entries replayed
   */
  long replay(Collection<Integer> partitions, Replay replay) throws IOException {
    return CommittedRecords.read(
        bootstrap,
        "vigil-watch-journal",
        topic,
        partitions,
        r -> replay.entry(r.partition(), BankRecord.fromJson(r.value())));
  }
}
