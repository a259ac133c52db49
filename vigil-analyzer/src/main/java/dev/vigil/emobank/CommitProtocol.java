package dev.vigil.emobank;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.ingest.QueuePositions;
import dev.vigil.io.AtomicWrite;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

/**
 * The commit protocol of a bank's one writer (docs/EMOBANK.md). A pass appends rows as it goes and
 * then commits: it syncs {@code emotions.jsonl}, records the identities of the deposited events
 * ({@link SeenIdentities}), and renames a new {@code checkpoint.json} into place ({@link
 * Checkpoint}); that rename is the commit point. A crash before it leaves rows past the committed
 * length, which the next {@link EmoBank#open} recovers and cuts off.
 *
 * <p>Compaction ({@link Retention}) is the one time {@code emotions.jsonl} is rewritten: the kept
 * rows and the new episode totals go to temporary files of fixed names, a checkpoint naming the new
 * length commits them, and they are then moved into place; an {@link EmoBank#open} that finds such
 * a checkpoint finishes the moves. A crash at any point leaves either the old bank or the new.
 */
final class CommitProtocol implements Journal {
  /** The kept rows of a compaction, until moved over {@code emotions.jsonl}. */
  static final String COMPACTED_ROWS = EmoBank.EMOTIONS + ".compact.tmp";

  /** The episode totals of a compaction, until moved over {@code episodes.json}. */
  static final String COMPACTED_EPISODES = EmoBank.EPISODES + ".tmp";

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final Path dir;
  private final RowsFile rows;
  private long generation;

  /** The protocol of the bank in {@code dir}, whose last commit was {@code generation}. */
  CommitProtocol(Path dir, RowsFile rows, long generation) {
    this.dir = dir;
    this.rows = rows;
    this.generation = generation;
  }

  /** The generation of the next commit, which names the file of a crashed pass's recovered rows. */
  long nextGeneration() {
    return generation + 1;
  }

  @Override
  public boolean append(EmotionRow row) throws IOException {
    rows.append(row);
    return true;
  }

  @Override
  public Retention.Result commit(
      List<EmotionRow> live,
      ObjectNode episodes,
      SeenIdentities seen,
      QueuePositions queues,
      Instant compactBefore)
      throws IOException {
    rows.sync();
    Retention.Result compaction =
        compactBefore == null ? null : Retention.compact(live, compactBefore, episodes);
    Long compactedBytes = null;
    if (compaction != null && compaction.compacted() > 0) {
      rows.close();
      compactedBytes = RowsFile.writeWhole(dir.resolve(COMPACTED_ROWS), compaction.kept());
      MAPPER
          .writerWithDefaultPrettyPrinter()
          .writeValue(dir.resolve(COMPACTED_EPISODES).toFile(), compaction.episodes());
    }
    long bytes = rows.size();
    long next = generation + 1;
    String previousSeen = seen.file();
    String seenName = seen.commit(dir, next);
    generation = next;
    writeCheckpoint(bytes, seen, compactedBytes, queues);
    if (previousSeen != null && !previousSeen.equals(seenName)) {
      Files.deleteIfExists(dir.resolve(previousSeen));
    }
    if (compactedBytes == null) {
      return null;
    }
    finishCompaction(dir);
    writeCheckpoint(compactedBytes, seen, null, queues);
    return compaction;
  }

  /** Renames a new {@code checkpoint.json} into place: the commit point. */
  void writeCheckpoint(
      long emotionsBytes, SeenIdentities seen, Long compactionBytes, QueuePositions queues)
      throws IOException {
    new Checkpoint(generation, emotionsBytes, seen.file(), seen.size(), compactionBytes, queues)
        .write(dir.resolve(EmoBank.CHECKPOINT));
  }

  /** Moves a committed compaction's files into place (those still there). */
  static void finishCompaction(Path dir) throws IOException {
    Path episodesTmp = dir.resolve(COMPACTED_EPISODES);
    if (Files.exists(episodesTmp)) {
      AtomicWrite.move(episodesTmp, dir.resolve(EmoBank.EPISODES));
    }
    Path rowsTmp = dir.resolve(COMPACTED_ROWS);
    if (Files.exists(rowsTmp)) {
      AtomicWrite.move(rowsTmp, dir.resolve(EmoBank.EMOTIONS));
    }
  }

  @Override
  public void close() {
    rows.close();
  }
}
