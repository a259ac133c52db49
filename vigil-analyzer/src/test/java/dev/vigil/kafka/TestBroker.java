package dev.vigil.kafka;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import kafka.server.BrokerServer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * A real Kafka broker in KRaft mode inside the test JVM (spring-kafka-test's {@link
 * EmbeddedKafkaKraftBroker}, used without Spring), on a fixed port so that it can be stopped and
 * started again under the clients' feet.
 */
final class TestBroker implements AutoCloseable {
  private final EmbeddedKafkaKraftBroker broker;

  private TestBroker(EmbeddedKafkaKraftBroker broker) {
    this.broker = broker;
  }

  /**
   * Starts a broker whose topics have {@code partitions} partitions; topics are not created on
   * first use.
   */
  static TestBroker start(int partitions, String... topics) throws IOException {
    return start(partitions, Map.of(), topics);
  }

  /**
   * Starts a broker with a listener behind each of {@code links}: a client that bootstraps through
   * a link ({@link #bootstrap(Link)}) is told the link's address for the cluster, so that all its
   * traffic goes through it, while the broker reaches itself directly.
   */
  static TestBroker startBehindLinks(int partitions, Link... links) throws IOException {
    // port 0: the test kit's own port for the broker's listener, advertised as bound
    StringBuilder listeners = new StringBuilder("EXTERNAL://localhost:0,CONTROLLER://localhost:0");
    StringBuilder advertised = new StringBuilder("EXTERNAL://localhost:0");
    StringBuilder protocols = new StringBuilder("EXTERNAL:PLAINTEXT,CONTROLLER:PLAINTEXT");
    int[] ports = new int[links.length];
    for (int i = 0; i < links.length; i++) {
      ports[i] = freePort();
      listeners.append(",LINK").append(i).append("://localhost:").append(ports[i]);
      advertised.append(",LINK").append(i).append("://localhost:").append(links[i].port());
      protocols.append(",LINK").append(i).append(":PLAINTEXT");
    }
    TestBroker broker =
        start(
            partitions,
            Map.of(
                "listeners", listeners.toString(),
                "advertised.listeners", advertised.toString(),
                "listener.security.protocol.map", protocols.toString(),
                "inter.broker.listener.name", "EXTERNAL"));
    for (int i = 0; i < links.length; i++) {
      links[i].to(ports[i]);
    }
    return broker;
  }

  private static TestBroker start(int partitions, Map<String, String> more, String... topics)
      throws IOException {
    EmbeddedKafkaKraftBroker b =
        new EmbeddedKafkaKraftBroker(1, partitions, topics).kafkaPorts(freePort());
    b.brokerProperties(more);
    b.brokerProperties(
        Map.of(
            "auto.create.topics.enable", "false",
            "offsets.topic.replication.factor", "1",
            "offsets.topic.num.partitions", "4",
            "transaction.state.log.replication.factor", "1",
            "transaction.state.log.min.isr", "1",
            "transaction.state.log.num.partitions", "4",
            "group.initial.rebalance.delay.ms", "0",
            // a dead instance's open transaction is aborted soon after its timeout, not a minute
            // later
            "transaction.abort.timed.out.transaction.cleanup.interval.ms", "1000"));
    b.afterPropertiesSet();
    return new TestBroker(b);
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    }
  }

  String bootstrap() {
    return broker.getBrokersAsString();
  }

  /** The bootstrap address of clients that reach the broker through {@code link}. */
  static String bootstrap(Link link) {
    return "localhost:" + link.port();
  }

  private BrokerServer server() {
    return broker.getCluster().brokers().values().iterator().next();
  }

  /** Stops the broker (its controller and its logs stay). */
  void stopBroker() {
    server().shutdown();
    server().awaitShutdown();
  }

  /** Starts the stopped broker again, on the same port with the same logs. */
  void startBroker() throws Exception {
    server().startup();
    broker.getCluster().waitForReadyBrokers();
  }

  void createTopic(String name, int partitions) {
    broker.addTopics(new org.apache.kafka.clients.admin.NewTopic(name, partitions, (short) 1));
  }

  /** Every record of {@code topic} committed so far, from its start, in partition order. */
  List<ConsumerRecord<String, String>> readAll(String topic) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap());
    p.put(ConsumerConfig.GROUP_ID_CONFIG, "test-reader-" + UUID.randomUUID());
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    p.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
    List<ConsumerRecord<String, String>> all = new ArrayList<>();
    try (KafkaConsumer<String, String> c = new KafkaConsumer<>(p)) {
      List<TopicPartition> parts =
          c.partitionsFor(topic).stream()
              .map(i -> new TopicPartition(topic, i.partition()))
              .toList();
      c.assign(parts);
      c.seekToBeginning(parts);
      Map<TopicPartition, Long> end = c.endOffsets(parts);
      while (parts.stream().anyMatch(tp -> c.position(tp) < end.get(tp))) {
        c.poll(Duration.ofMillis(200)).forEach(all::add);
      }
    }
    return all;
  }

  /**
   * Produces plain records (a test's foreign records on a topic), acknowledged before it returns.
   */
  void produce(String topic, String key, String... values) throws Exception {
    Properties p = new Properties();
    p.put("bootstrap.servers", bootstrap());
    p.put("key.serializer", StringSerializer.class.getName());
    p.put("value.serializer", StringSerializer.class.getName());
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(p)) {
      for (String v : values) {
        producer.send(new ProducerRecord<>(topic, key, v)).get();
      }
    }
  }

  @Override
  public void close() {
    broker.destroy();
  }
}
