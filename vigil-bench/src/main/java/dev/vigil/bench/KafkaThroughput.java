package dev.vigil.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventJson;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Utils;
import org.springframework.kafka.test.EmbeddedKafkaKraftBroker;

/**
 * Events per second through Kafka (docs/KAFKA.md and docs/BENCHMARKS.md), against a real KRaft
 * broker started in this JVM (spring-kafka-test's {@link EmbeddedKafkaKraftBroker}, without Spring;
 * one broker, a two-partition topic):
 *
 * <ol>
 *   <li>{@code ship}: a Chronicle queue of two agents' events, written before it starts, forwarded
 *       by {@code java -jar vigil-analyzer.jar ship} until the topic holds every event (its end
 *       offsets), then stopped with SIGTERM;
 *   <li>a group of two {@code watch --bootstrap} instances over that topic, deposits only (no pass
 *       triggers): until the group's committed offsets reach the topic's end. The offsets are
 *       committed in the same transaction as the deposits' journal records, so this is the moment
 *       every event is deposited exactly once in its agent's bank; each instance's stop line
 *       (SIGTERM) says how many it deposited.
 * </ol>
 *
 * Each figure is given over the whole process (JVM start and group join included) and from the
 * first event seen on Kafka to the last (the steady rate).
 */
final class KafkaThroughput {
  /**
   * One scenario's figures.
   *
   * @param seconds from the launch of the process(es) to the last event
   * @param steadySeconds from the first progress seen to the last event
   * @param steadyEvents events after the first progress seen
   * @param detail what the stop lines said
   */
  record Figure(
      String scenario,
      long events,
      double seconds,
      long steadyEvents,
      double steadySeconds,
      String detail,
      String failure) {
    double perSecond() {
      return events / seconds;
    }

    double steadyPerSecond() {
      return steadyEvents / steadySeconds;
    }
  }

  static final String TOPIC = "vigil.events";
  static final String GROUP = "vigil-bench";
  private static final long PATIENCE_MS = 600_000;
  private static final Pattern SHIPPED = Pattern.compile(" ship stopped: (\\d+) events shipped");
  private static final Pattern DEPOSITED =
      Pattern.compile(" watch stopped: (\\d+) events deposited");

  private KafkaThroughput() {}

  /**
   * Runs both scenarios over {@code perAgent} events of each of two agents, in a directory under
   * {@code work}.
   */
  static List<Figure> measure(String java, Path analyzer, Path work, int perAgent)
      throws Exception {
    Path dir = Files.createDirectories(work.resolve("kafka"));
    List<String> agents = agentsOnTwoPartitions();
    long total = 2L * perAgent;
    Path queue = dir.resolve("queue");
    append(queue, perAgent, agents);
    EmbeddedKafkaKraftBroker broker = startBroker();
    try (Admin admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.getBrokersAsString()))) {
      admin.createTopics(List.of(new NewTopic(TOPIC, 2, (short) 1))).all().get();
      String bootstrap = broker.getBrokersAsString();
      Figure ship =
          timed(
              "ship",
              total,
              List.of(
                  BenchmarkSuite.analyzerCommand(
                      java,
                      analyzer,
                      "ship",
                      "--queue",
                      queue.toString(),
                      "--bootstrap",
                      bootstrap,
                      "--topic",
                      TOPIC)),
              dir,
              SHIPPED,
              () -> shipped(admin));
      if (ship.failure() != null) {
        return List.of(ship);
      }
      List<List<String>> watches = new ArrayList<>();
      for (String name : List.of("a", "b")) {
        watches.add(
            BenchmarkSuite.analyzerCommand(
                java,
                analyzer,
                "watch",
                "--bootstrap",
                bootstrap,
                "--topic",
                TOPIC,
                "--group",
                GROUP,
                "--out",
                dir.resolve("out-" + name).toString()));
      }
      return List.of(
          ship,
          timed("group of two watch", total, watches, dir, DEPOSITED, () -> deposited(admin)));
    } finally {
      broker.destroy();
    }
  }

  /** Prints the figures, each with its unit and what it is compared to. */
  static void print(List<Figure> kafkaFigures) {
    System.out.println(
        "through Kafka, one KRaft broker in the benchmark's JVM, a topic of 2 partitions, 2 agents "
            + "(events/s, -Xmx512m each; whole: from the processes' launch, JVM start and group join included; steady: "
            + "from the first event seen on Kafka; compare with the analyzer's run and watch on one host above):");
    for (Figure f : kafkaFigures) {
      if (f.failure() != null) {
        System.out.printf("  %-20s FAILED: %s%n", f.scenario(), f.failure());
        continue;
      }
      String what =
          f.scenario().startsWith("ship")
              ? "until the topic holds every event; stop line: " + f.detail() + " shipped"
              : "until the group's offsets, committed with the deposits, reach the topic's end; deposited by each: "
                  + f.detail();
      System.out.printf(
          "  %-20s %,9d events  whole %6.2f s %,9.0f events/s  steady %6.2f s %,9.0f events/s  (%s)%n",
          f.scenario(),
          f.events(),
          f.seconds(),
          f.perSecond(),
          f.steadySeconds(),
          f.steadyPerSecond(),
          what);
    }
  }

  private interface Progress {
    long events() throws Exception;
  }

  /**
   * Launches the processes, waits until {@code progress} reaches {@code total}, stops them with
   * SIGTERM and reads the count of {@code stopped} from each one's output.
   */
  private static Figure timed(
      String scenario,
      long total,
      List<List<String>> commands,
      Path dir,
      Pattern stopped,
      Progress progress)
      throws Exception {
    List<Process> processes = new ArrayList<>();
    List<Path> outs = new ArrayList<>();
    String tag = scenario.replaceAll("[^a-z0-9]+", "-");
    long launched = System.nanoTime();
    try {
      for (List<String> cmd : commands) {
        Path out = dir.resolve(tag + "-" + processes.size() + ".out");
        outs.add(out);
        processes.add(launch(cmd, out, dir.resolve(tag + "-" + processes.size() + ".err")));
      }
      long firstAt = 0;
      long firstEvents = 0;
      long seen;
      while ((seen = progress.events()) < total) {
        if (firstAt == 0 && seen > 0) {
          firstAt = System.nanoTime();
          firstEvents = seen;
        }
        for (Process p : processes) {
          if (!p.isAlive()) {
            return failed(
                scenario,
                total,
                "a process exited (" + p.exitValue() + ") at " + seen + " events; see " + dir);
          }
        }
        if ((System.nanoTime() - launched) / 1_000_000 > PATIENCE_MS) {
          return failed(
              scenario,
              total,
              "only " + seen + " events after " + PATIENCE_MS / 1000 + " s; see " + dir);
        }
        Thread.sleep(50); // a sampling period of the measurement, not a synchronization
      }
      long done = System.nanoTime();
      if (firstAt == 0) {
        firstAt = launched;
      }
      List<String> counts = stop(processes, outs, stopped);
      if (counts == null) {
        return failed(scenario, total, "did not stop with exit 0 on SIGTERM; see " + dir);
      }
      return new Figure(
          scenario,
          total,
          (done - launched) / 1e9,
          total - firstEvents,
          (done - firstAt) / 1e9,
          String.join(" + ", counts),
          null);
    } finally {
      for (Process p : processes) {
        if (p.isAlive()) {
          p.destroyForcibly().waitFor();
        }
      }
    }
  }

  private static Process launch(List<String> cmd, Path out, Path err) throws IOException {
    return new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
  }

  /**
   * Stops the processes with SIGTERM; each one's count of {@code stopped} from its output, or null
   * when one did not stop with exit 0.
   */
  private static List<String> stop(List<Process> processes, List<Path> outs, Pattern stopped)
      throws Exception {
    List<String> counts = new ArrayList<>();
    for (int i = 0; i < processes.size(); i++) {
      Process p = processes.get(i);
      p.destroy(); // SIGTERM
      if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
        return null;
      }
      Matcher m = stopped.matcher(Files.readString(outs.get(i)));
      counts.add(m.find() ? String.format("%,d", Long.parseLong(m.group(1))) : "?");
    }
    return counts;
  }

  private static Figure failed(String scenario, long total, String why) {
    return new Figure(scenario, total, Double.NaN, 0, Double.NaN, "", why);
  }

  /**
   * Records on the events' topic: its end offsets (ship's producer is idempotent, not
   * transactional).
   */
  private static long shipped(Admin admin) throws Exception {
    long n = 0;
    for (var e :
        admin
            .listOffsets(
                Map.of(
                    new TopicPartition(TOPIC, 0),
                    OffsetSpec.latest(),
                    new TopicPartition(TOPIC, 1),
                    OffsetSpec.latest()))
            .all()
            .get()
            .values()) {
      n += e.offset();
    }
    return n;
  }

  /** Events whose deposits the group has committed: its committed offsets on the events' topic. */
  private static long deposited(Admin admin) throws Exception {
    long n = 0;
    for (Map.Entry<TopicPartition, OffsetAndMetadata> e :
        admin.listConsumerGroupOffsets(GROUP).partitionsToOffsetAndMetadata().get().entrySet()) {
      if (e.getKey().topic().equals(TOPIC) && e.getValue() != null) {
        n += e.getValue().offset();
      }
    }
    return n;
  }

  /**
   * A KRaft broker with the settings of the analyzer's Kafka tests (one replica, topics never
   * auto-created).
   */
  private static EmbeddedKafkaKraftBroker startBroker() throws IOException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    EmbeddedKafkaKraftBroker b = new EmbeddedKafkaKraftBroker(1, 2).kafkaPorts(port);
    b.brokerProperties(
        Map.of(
            "auto.create.topics.enable", "false",
            "offsets.topic.replication.factor", "1",
            "offsets.topic.num.partitions", "4",
            "transaction.state.log.replication.factor", "1",
            "transaction.state.log.min.isr", "1",
            "transaction.state.log.num.partitions", "4",
            "group.initial.rebalance.delay.ms", "0"));
    b.afterPropertiesSet();
    return b;
  }

  /**
   * Two agent names whose records go to different partitions of a two-partition topic (Kafka's key
   * hash).
   */
  static List<String> agentsOnTwoPartitions() {
    String first = "robin";
    int p = Utils.toPositive(Utils.murmur2(first.getBytes())) % 2;
    for (String other : List.of("wren", "lark", "finch", "swift", "kite", "heron")) {
      if (Utils.toPositive(Utils.murmur2(other.getBytes())) % 2 != p) {
        return List.of(first, other);
      }
    }
    throw new IllegalStateException("no second agent name on the other partition");
  }

  /**
   * Appends {@code perAgent} tool calls of each agent, interleaved, one millisecond apart, every
   * fifth failed.
   */
  private static void append(Path queue, int perAgent, List<String> agents) {
    Instant first = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusMillis(perAgent + 1000L);
    try (ChronicleQueue q = EventQueues.openForWriting(queue);
        ExcerptAppender a = q.createAppender()) {
      for (int s = 0; s < perAgent; s++) {
        for (String agent : agents) {
          ObjectNode payload = EventJson.mapper().createObjectNode();
          payload.put("tool", "setReminder");
          payload.put("result", "Reminder set " + s);
          payload.put("duration_ms", 2.5);
          EventWire.append(
              a,
              Event.of(
                      first.plusMillis(s), "tool.set_reminder", s % 5 == 4 ? "fail" : "ok", payload)
                  .withOrigin(agent, (long) s, 4242L, "main"));
        }
      }
    }
  }
}
