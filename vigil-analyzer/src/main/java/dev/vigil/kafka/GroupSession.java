package dev.vigil.kafka;

import dev.vigil.appraise.Appraiser;
import dev.vigil.emobank.EmoBank;
import dev.vigil.emobank.EmotionRow;
import dev.vigil.ingest.AgentName;
import dev.vigil.ingest.EventIdentity;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventJson;
import dev.vigil.observe.Timestamps;
import dev.vigil.orchestrate.Depositor;
import dev.vigil.watch.PassTriggers;
import dev.vigil.watch.Trigger;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * One membership of a group {@code watch} in its consumer group: a consumer of the events
 * (read_committed, offsets never auto-committed) and a transactional producer. Each turn of {@link
 * #turn()} is one Kafka transaction: the records polled are appraised and deposited into their
 * agents' banks, each deposit also written to the banks' journal ({@link BankJournal}, same
 * partition as its event), the passes that are due run and their reports and derived deposits join
 * the transaction, and the consumed offsets are committed in it ({@code sendOffsetsToTransaction}).
 * So a deposit is in the journal if and only if its event's offset is committed: exactly once,
 * whatever the rebalances. An assigned partition's agents are rebuilt from the journal first. Any
 * failure ends the session; the caller starts a new one, whose assignments rebuild the banks again.
 */
final class GroupSession implements AutoCloseable {
  /**
   * How long a transaction may stay open before the broker aborts it: how soon a dead instance's
   * agents move.
   */
  static final int TRANSACTION_TIMEOUT_MS = 10_000;

  /** How soon the group notices that an instance died. */
  static final int SESSION_TIMEOUT_MS = 6_000;

  private final GroupWatcher.Settings s;
  private final KafkaConsumer<String, String> consumer;
  private final KafkaProducer<String, String> producer;
  private final BankJournal journal;
  private final AgentBanks banks;
  private final PassTriggers triggers;
  private final GroupPasses passes;
  private final Depositor depositor;
  private final Clock clock;
  private final PrintWriter out;
  private final GroupWatcher.Counts counts;

  GroupSession(
      GroupWatcher.Settings s,
      AgentBanks banks,
      PassTriggers triggers,
      GroupPasses passes,
      Clock clock,
      PrintWriter out,
      GroupWatcher.Counts counts) {
    this.s = s;
    this.banks = banks;
    this.triggers = triggers;
    this.passes = passes;
    this.clock = clock;
    this.out = out;
    this.counts = counts;
    this.depositor = new Depositor(s.template().rules());
    this.journal = new BankJournal(s.bootstrap(), BankJournal.topicFor(s.topic()));
    Properties c = KafkaClients.common(s.bootstrap(), "vigil-watch");
    c.put(ConsumerConfig.GROUP_ID_CONFIG, s.group());
    c.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    c.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    c.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    c.put(ConsumerConfig.SESSION_TIMEOUT_MS_CONFIG, SESSION_TIMEOUT_MS);
    c.put(ConsumerConfig.HEARTBEAT_INTERVAL_MS_CONFIG, SESSION_TIMEOUT_MS / 3);
    c.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 1_000);
    c.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    c.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    this.consumer = new KafkaConsumer<>(c);
    this.producer =
        new KafkaProducer<>(
            KafkaClients.transactionalProducer(
                s.bootstrap(),
                "vigil-watch",
                "vigil-watch-" + s.group() + "-" + UUID.randomUUID(),
                TRANSACTION_TIMEOUT_MS));
  }

  /** Joins the group; the agents come with the first assignment. */
  void start() {
    producer.initTransactions();
    consumer.subscribe(List.of(s.topic()), new Rebalance());
  }

  /** One poll and one transaction (when there is something to deposit or a pass is due). */
  // sends inside a transaction: a failed send makes commitTransaction throw, so the futures need
  // not be read
  @SuppressWarnings("FutureReturnValueIgnored")
  void turn() throws IOException {
    ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(100));
    Instant now = clock.instant();
    Map<String, Trigger> due = new HashMap<>();
    List<String> owned = banks.agents();
    if (!owned.isEmpty()) {
      triggers
          .due(now, true, owned)
          .forEach(
              (agent, why) -> {
                if (owned.contains(agent)) {
                  due.put(agent, why);
                }
              });
    }
    if (records.isEmpty() && due.isEmpty()) {
      return;
    }
    producer.beginTransaction();
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    for (ConsumerRecord<String, String> r : records) {
      record(r);
      offsets.put(
          new TopicPartition(r.topic(), r.partition()), new OffsetAndMetadata(r.offset() + 1));
    }
    if (!due.isEmpty()) {
      banks.commitLocal(); // the passes read the banks as they are now
      Map<String, Long> events = triggers.passing(due.keySet(), true);
      for (Map.Entry<String, Trigger> d : due.entrySet()) {
        AgentBanks.Agent a = banks.get(d.getKey());
        GroupPasses.Outcome o =
            passes.run(
                a, banks, d.getValue(), events.getOrDefault(a.name, 0L), now, counts.skipped);
        for (EmoBank.PendingDeposit p : o.deposits()) {
          // events reach the bank from the topic only; a pass adds its detectors' derived deposits
          if (p.derived() && !a.bank.isDeposited(p.identity())) {
            deposit(a, BankRecord.derived(a.name, p.identity(), p.row()));
          }
        }
        if (o.report() != null) {
          producer.send(new ProducerRecord<>(GroupTopics.REPORTS, a.name, o.report()));
        }
      }
      triggers.passEnded(clock.instant());
    }
    if (!offsets.isEmpty()) {
      producer.sendOffsetsToTransaction(offsets, consumer.groupMetadata());
    }
    producer.commitTransaction();
    banks.commitLocal();
  }

  /**
   * Appraises and deposits one record of the events' topic; a record that is not an event is
   * skipped, counted.
   */
  private void record(ConsumerRecord<String, String> r) throws IOException {
    Event e;
    try {
      e = EventJson.read(r.value() == null ? "" : r.value(), ZoneId.of("UTC")).event();
    } catch (EventFormatException ex) {
      counts.skipped++;
      if (counts.skipped == 1 || counts.skipped % 1000 == 0) {
        out.println(
            Timestamps.format(clock.instant())
                + " skipped record "
                + r.partition()
                + "@"
                + r.offset()
                + " of "
                + s.topic()
                + ": not a Vigil event ("
                + ex.getMessage()
                + "); "
                + counts.skipped
                + " skipped so far");
      }
      return;
    }
    String agent = AgentName.display(e.agent());
    AgentBanks.Agent a = banks.ownFresh(agent, r.partition());
    long identity = EventIdentity.ofContent(e);
    if (a.bank.isDeposited(identity)) {
      counts
          .duplicates++; // the same event twice in the topic (two producers of it): deposited once
      return;
    }
    EmotionRow row = null;
    if (!Appraiser.isContext(e)) {
      row = depositor.row(e);
    }
    deposit(a, BankRecord.event(agent, identity, EventJson.write(e), row));
    if (row != null) {
      triggers.deposited(agent, row);
    }
  }

  /** Applies an entry to the local bank and writes it to the journal, inside the transaction. */
  // sends inside a transaction: a failed send makes commitTransaction throw, so the futures need
  // not be read
  @SuppressWarnings("FutureReturnValueIgnored")
  private void deposit(AgentBanks.Agent a, BankRecord entry) throws IOException {
    apply(a, entry);
    producer.send(new ProducerRecord<>(journal.topic(), a.partition, entry.key(), entry.toJson()));
    if (entry.countsAsEvent()) {
      counts.deposited.incrementAndGet();
    }
  }

  /** What a journal entry does to the local bank: live or replayed, the same. */
  private static void apply(AgentBanks.Agent a, BankRecord entry) throws IOException {
    if (entry.event() != null) {
      AgentBanks.appendEvent(a, entry.event());
    }
    if (entry.row() != null) {
      a.bank.deposit(
          entry.identity(), entry.row()); // context (no row) is for the passes' detectors only
    }
    if (entry.countsAsEvent()) {
      a.eventsDeposited++;
    }
  }

  /** Rebuilds the agents of assigned partitions from the journal; lets go of revoked ones. */
  private final class Rebalance implements ConsumerRebalanceListener {
    @Override
    public void onPartitionsAssigned(Collection<TopicPartition> parts) {
      List<Integer> ps = parts.stream().map(TopicPartition::partition).toList();
      try {
        long n =
            journal.replay(
                ps, (partition, entry) -> apply(banks.ownFresh(entry.agent(), partition), entry));
        banks.commitLocal();
        out.println(
            Timestamps.format(clock.instant())
                + " assigned partitions "
                + ps
                + " of "
                + s.topic()
                + ": agents "
                + banks.agents()
                + ", "
                + n
                + " bank entries replayed from "
                + journal.topic());
        out.flush();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void onPartitionsRevoked(Collection<TopicPartition> parts) {
      if (parts.isEmpty()) {
        return;
      }
      banks.release(parts.stream().map(TopicPartition::partition).toList());
      out.println(
          Timestamps.format(clock.instant())
              + " revoked partitions "
              + parts.stream().map(TopicPartition::partition).toList()
              + "; agents now "
              + banks.agents());
      out.flush();
    }
  }

  /** Leaves the group; a transaction left open is aborted. */
  @Override
  public void close() {
    try {
      consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
    } catch (RuntimeException e) {
      // leaving a group that cannot be reached: the group notices after its session timeout
    }
    try {
      producer.close(Duration.ofSeconds(5));
    } catch (RuntimeException e) {
      // the broker aborts what was left open
    }
  }
}
