package dev.vigil.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.observe.EventJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.utils.Utils;

/**
 * What the group tests send to a broker and read back from it: agents' calls as {@code ship} would
 * produce them, the latest report of each agent, and the bank journal's deposits.
 */
final class Fleet {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private Fleet() {}

  /** Two agent names whose records land in different partitions of a two-partition topic. */
  static List<String> agentsOnTwoPartitions() {
    String first = "robin";
    int p = Utils.toPositive(Utils.murmur2(first.getBytes(StandardCharsets.UTF_8))) % 2;
    for (String other : List.of("wren", "lark", "finch", "swift", "kite", "heron")) {
      if (Utils.toPositive(Utils.murmur2(other.getBytes(StandardCharsets.UTF_8))) % 2 != p) {
        return List.of(first, other);
      }
    }
    throw new AssertionError("no second agent name found");
  }

  /** Produces calls {@code from} to {@code to - 1} of the agent, as ship would. */
  static void send(TestBroker broker, String topic, String agent, long from, long to)
      throws Exception {
    List<String> values = new ArrayList<>();
    for (long s = from; s < to; s++) {
      values.add(EventJson.write(TestEvents.call(agent, s)));
    }
    broker.produce(topic, agent, values.toArray(String[]::new));
  }

  /** The latest report of each agent on {@code vigil.reports}. */
  static Map<String, JsonNode> latestReports(TestBroker broker) throws IOException {
    Map<String, JsonNode> latest = new HashMap<>();
    for (ConsumerRecord<String, String> r : broker.readAll(GroupTopics.REPORTS)) {
      latest.put(r.key(), MAPPER.readTree(r.value()));
    }
    return latest;
  }

  /** The agent's {@code events_deposited_total} in {@code reports}, or -1 when it has none. */
  static long total(Map<String, JsonNode> reports, String agent) {
    JsonNode r = reports.get(agent);
    return r == null ? -1 : r.path("events_deposited_total").asLong(-1);
  }

  /**
   * The agents' own events in the bank journal of {@code topic}, each agent's deposits counted,
   * checking that no deposit's identity is in it twice.
   */
  static Map<String, Integer> journaled(TestBroker broker, String topic) {
    Map<String, Integer> journaled = new HashMap<>();
    Set<String> seen = new HashSet<>();
    for (ConsumerRecord<String, String> r : broker.readAll(BankJournal.topicFor(topic))) {
      BankRecord e = BankRecord.fromJson(r.value());
      if (e.countsAsEvent()) {
        if (!seen.add(e.key())) {
          throw new AssertionError("deposited twice: " + e.key());
        }
        journaled.merge(e.agent(), 1, Integer::sum);
      }
    }
    return journaled;
  }
}
