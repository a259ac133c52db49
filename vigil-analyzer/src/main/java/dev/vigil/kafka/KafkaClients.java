package dev.vigil.kafka;

import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The client settings Vigil's Kafka commands share: the bootstrap servers, and timeouts short
 * enough that an unreachable cluster is said within seconds rather than minutes (the clients'
 * defaults wait up to two minutes before a send fails).
 */
final class KafkaClients {
  /** How long a send waits for the cluster's metadata, and a request for its answer. */
  static final int REQUEST_TIMEOUT_MS = 5_000;

  /** How long a record may take from send to acknowledgement, retries included. */
  static final int DELIVERY_TIMEOUT_MS = 15_000;

  private KafkaClients() {}

  /** The settings every client of {@code bootstrap} starts from. */
  static Properties common(String bootstrap, String clientId) {
    Properties p = new Properties();
    p.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(CommonClientConfigs.CLIENT_ID_CONFIG, clientId);
    p.put(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, REQUEST_TIMEOUT_MS);
    p.put(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG, 3 * REQUEST_TIMEOUT_MS);
    p.put(CommonClientConfigs.RECONNECT_BACKOFF_MAX_MS_CONFIG, 1_000);
    return p;
  }

  /**
   * An idempotent producer's settings: every record acknowledged by all in-sync replicas, never
   * duplicated.
   */
  static Properties idempotentProducer(String bootstrap, String clientId) {
    Properties p = common(bootstrap, clientId);
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, REQUEST_TIMEOUT_MS);
    p.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, DELIVERY_TIMEOUT_MS);
    p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    p.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    p.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
    return p;
  }

  /**
   * A transactional producer's settings: idempotent, with the transactional id {@code
   * transactionalId} (a new producer with the same id fences the old one and settles the
   * transaction it left open), and a transaction left open aborted by the broker after {@code
   * timeoutMs}.
   */
  static Properties transactionalProducer(
      String bootstrap, String clientId, String transactionalId, int timeoutMs) {
    Properties p = idempotentProducer(bootstrap, clientId);
    p.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
    p.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, timeoutMs);
    return p;
  }
}
