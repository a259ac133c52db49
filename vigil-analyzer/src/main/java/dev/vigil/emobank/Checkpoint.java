package dev.vigil.emobank;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.ingest.QueuePositions;
import dev.vigil.io.AtomicWrite;
import java.io.IOException;
import java.nio.file.Path;

/**
 * The bank's {@code checkpoint.json}, the record of its last commit: renaming a new one into place
 * is the commit point (see {@link EmoBank}).
 *
 * @param generation the number of the commit
 * @param emotionsBytes how many bytes of {@code emotions.jsonl} are committed
 * @param seenFile the identity file ({@code seen-N.bin}), or null before the first deposit
 * @param eventsDeposited how many identities of it are committed; -1 when not recorded (all of the
 *     file)
 * @param compactionBytes the length of the compacted rows file while a compaction's files are being
 *     moved into place, else null
 * @param queues where the reading of each queue stopped
 */
record Checkpoint(
    long generation,
    long emotionsBytes,
    String seenFile,
    long eventsDeposited,
    Long compactionBytes,
    QueuePositions queues) {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /**
   * Reads and checks {@code file}.
   *
   * @throws BankCorruptException when it is not readable JSON or has no committed length
   */
  static Checkpoint read(Path file) throws BankCorruptException {
    JsonNode cp = readJson(file);
    long committed = cp.path("emotions_bytes").asLong(-1);
    if (committed < 0) {
      throw new BankCorruptException(file, 0, "has no emotions_bytes, or a negative one");
    }
    return new Checkpoint(
        cp.path("generation").asLong(0),
        committed,
        cp.path("seen").asText(null),
        cp.path("events_deposited").asLong(-1),
        cp.has("compaction_bytes") ? cp.get("compaction_bytes").asLong() : null,
        QueuePositions.fromJson(cp.path("queues")));
  }

  /**
   * Where a queue's reading stopped, read from {@code file} without checking the rest; -1 when the
   * queue has no entry.
   *
   * @throws BankCorruptException when it is not readable JSON
   */
  static long queuePosition(Path file, String queueKey) throws BankCorruptException {
    return readJson(file).path("queues").path(queueKey).asLong(QueuePositions.NONE);
  }

  private static JsonNode readJson(Path file) throws BankCorruptException {
    try {
      return MAPPER.readTree(file.toFile());
    } catch (IOException e) {
      throw new BankCorruptException(
          file,
          0,
          "is not readable JSON; restore it from a backup or remove "
              + "the bank directory to start afresh");
    }
  }

  /** Replaces {@code file} with this checkpoint in one step: the commit point. */
  void write(Path file) throws IOException {
    ObjectNode cp = MAPPER.createObjectNode();
    cp.put("version", 1);
    cp.put("generation", generation);
    cp.put("emotions_bytes", emotionsBytes);
    if (seenFile != null) {
      cp.put("seen", seenFile);
    }
    if (compactionBytes != null) {
      cp.put("compaction_bytes", compactionBytes);
    }
    cp.put("events_deposited", eventsDeposited);
    queues.writeTo(cp.putObject("queues"));
    AtomicWrite.replace(file, MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(cp));
  }
}
