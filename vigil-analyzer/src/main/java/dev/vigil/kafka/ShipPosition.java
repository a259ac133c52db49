package dev.vigil.kafka;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.io.AtomicWrite;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where {@code ship} stopped, as this host saw it: the index of the last excerpt committed in
 * Kafka, in a small JSON file beside the queue ({@code <queue>.ship-<topic>.json}), never inside
 * Chronicle's files. It is replaced atomically after each committed batch. Kafka's own record of
 * it, the {@link ShipLedger}, wins when it is further on (a ship killed between a commit and this
 * write).
 */
public final class ShipPosition {
  /** The position of a queue never shipped. */
  public static final long NONE = -1;

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final Path file;
  private final String queue;
  private final String topic;

  private ShipPosition(Path file, String queue, String topic) {
    this.file = file;
    this.queue = queue;
    this.topic = topic;
  }

  /**
   * The position of {@code queue} shipped to {@code topic}: in {@code file}, or beside the queue
   * when null.
   */
  public static ShipPosition of(Path queue, String topic, Path file) {
    Path abs = queue.toAbsolutePath().normalize();
    Path f =
        file != null ? file : abs.resolveSibling(abs.getFileName() + ".ship-" + topic + ".json");
    return new ShipPosition(f, abs.toString(), topic);
  }

  /** The file the position is kept in. */
  public Path file() {
    return file;
  }

  /**
   * The index of the last excerpt acknowledged, or {@link #NONE}.
   *
   * @throws IllegalArgumentException naming the file when it is not a position {@code ship} wrote
   */
  public long read() throws IOException {
    if (!Files.exists(file)) {
      return NONE;
    }
    JsonNode n;
    try {
      n = MAPPER.readTree(file.toFile());
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "ship position "
              + file
              + " is not JSON ("
              + e.getMessage()
              + "); remove it to ship the queue from its start",
          e);
    }
    if (n == null || !n.path("index").isIntegralNumber()) {
      throw new IllegalArgumentException(
          "ship position "
              + file
              + " has no integer \"index\"; remove it to ship "
              + "the queue from its start");
    }
    return n.get("index").asLong();
  }

  /** Records that Kafka acknowledged every excerpt up to {@code index}. */
  public void write(long index, long shipped) throws IOException {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("queue", queue);
    n.put("topic", topic);
    n.put("index", index);
    n.put("events_shipped", shipped);
    AtomicWrite.replace(file, MAPPER.writeValueAsBytes(n));
  }

  /** The events shipped in total as of the last write (0 when none). */
  public long shipped() throws IOException {
    return Files.exists(file) ? MAPPER.readTree(file.toFile()).path("events_shipped").asLong(0) : 0;
  }
}
