package dev.vigil.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.TreeMap;

/**
 * Where the reading of each Chronicle queue stopped: the queue's key ({@link QueueSource#key()}) to
 * the index of the last excerpt read. The EmoBank keeps these positions in its checkpoint, so that
 * a position is committed together with the rows of the events read up to it (see {@link
 * QueueSource}); keys are kept sorted, as the checkpoint lists them.
 */
public final class QueuePositions {
  /** The position of a queue never read. */
  public static final long NONE = -1;

  private final Map<String, Long> positions = new TreeMap<>();

  private QueuePositions() {}

  /** No position yet. */
  public static QueuePositions empty() {
    return new QueuePositions();
  }

  /** The positions of a JSON object of queue key to index (absent or not an object: none). */
  public static QueuePositions fromJson(JsonNode object) {
    QueuePositions p = new QueuePositions();
    object.properties().forEach(e -> p.positions.put(e.getKey(), e.getValue().asLong()));
    return p;
  }

  /** Where the queue's reading stopped, or {@link #NONE}. */
  public long of(String queueKey) {
    return positions.getOrDefault(queueKey, NONE);
  }

  /** Records where the queue's reading stopped. */
  public void record(String queueKey, long index) {
    positions.put(queueKey, index);
  }

  /** Writes the positions into {@code object}, one field per queue. */
  public void writeTo(ObjectNode object) {
    positions.forEach(object::put);
  }
}
