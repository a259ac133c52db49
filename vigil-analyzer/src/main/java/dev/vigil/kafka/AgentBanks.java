package dev.vigil.kafka;

import dev.vigil.emobank.EmoBank;
import dev.vigil.fleet.FleetLayout;
import dev.vigil.ingest.AgentName;
import dev.vigil.io.OwnerOnly;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The banks of the agents this instance owns, kept on local disk as a cache of their journal in
 * Kafka ({@link BankRecord}): per agent an EmoBank under {@code OUT/.kafka/agents/<agent>/} and the
 * agent's events as JSONL in {@code OUT/.kafka/events/<agent>.jsonl} (what its passes read). When a
 * partition is assigned, the banks of its agents are wiped and rebuilt from the journal; the
 * journal, not this cache, is the bank.
 */
final class AgentBanks implements AutoCloseable {
  private final FleetLayout layout;
  private final Path eventsDir;
  private final Map<String, Agent> open = new LinkedHashMap<>();

  /** An agent's bank, its events file, its partition and how many of its events the bank holds. */
  static final class Agent {
    final String name;
    final int partition;
    final EmoBank bank;
    final Path events;
    final Writer eventsOut;
    long eventsDeposited;

    private Agent(String name, int partition, EmoBank bank, Path events) throws IOException {
      this.name = name;
      this.partition = partition;
      this.bank = bank;
      this.events = events;
      this.eventsOut =
          Files.newBufferedWriter(
              events, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
  }

  AgentBanks(Path out) throws IOException {
    Path root = out.resolve(".kafka");
    this.layout = new FleetLayout(root, out, true);
    this.eventsDir = root.resolve("events");
    OwnerOnly.createDirectories(eventsDir);
  }

  FleetLayout layout() {
    return layout;
  }

  /** The agent if this instance owns it, else null. */
  Agent get(String agent) {
    return open.get(agent);
  }

  /**
   * The agent, opened with an empty bank (its local cache wiped) when it is new to this instance.
   */
  Agent ownFresh(String agent, int partition) throws IOException {
    Agent a = open.get(agent);
    if (a == null) {
      Path bankDir = layout.bank(agent);
      deleteTree(bankDir);
      Path events = eventsDir.resolve(AgentName.directory(agent) + ".jsonl");
      Files.deleteIfExists(events);
      a = new Agent(agent, partition, EmoBank.open(bankDir), events);
      open.put(agent, a);
    }
    return a;
  }

  /** Appends an event's JSON to the agent's events file. */
  static void appendEvent(Agent a, String json) throws IOException {
    a.eventsOut.write(json);
    a.eventsOut.write('\n');
  }

  /** The agents owned, first owned first. */
  List<String> agents() {
    return List.copyOf(open.keySet());
  }

  /**
   * Commits every bank and flushes the events files (before a pass reads them, and after a
   * transaction).
   */
  void commitLocal() throws IOException {
    for (Agent a : open.values()) {
      a.eventsOut.flush();
      a.bank.commit(null);
    }
  }

  /** Lets go of the agents of these partitions (they were revoked or lost). */
  void release(java.util.Collection<Integer> partitions) {
    List<String> gone = new ArrayList<>();
    open.forEach(
        (name, a) -> {
          if (partitions.contains(a.partition)) {
            gone.add(name);
          }
        });
    gone.forEach(name -> close(open.remove(name)));
  }

  private static void close(Agent a) {
    try {
      a.eventsOut.close();
    } catch (IOException e) {
      // a cache: the next owner rebuilds it from the journal
    }
    a.bank.close();
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> all = Files.walk(dir)) {
      all.sorted(Comparator.reverseOrder())
          .forEach(
              p -> {
                try {
                  Files.delete(p);
                } catch (IOException e) {
                  throw new UncheckedIOException(e);
                }
              });
    }
  }

  @Override
  public void close() {
    open.values().forEach(AgentBanks::close);
    open.clear();
  }
}
