package dev.vigil.emobank;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.ingest.QueuePositions;
import dev.vigil.io.AtomicWrite;
import dev.vigil.io.OwnerOnly;
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

  /**
   * What the last commit made durable: the length of {@code emotions.jsonl}, the identity file and
   * how many of its identities count (-1: all of it). A commit that fails before its checkpoint is
   * rolled back to these ({@link #rollBack}).
   */
  private long committedBytes;

  private String committedSeen;
  private long committedSeenCount;

  /** The protocol of a new bank in {@code dir}, with {@code committedBytes} of rows. */
  CommitProtocol(Path dir, RowsFile rows, long committedBytes) {
    this(dir, rows, 0, committedBytes, null, 0);
  }

  /**
   * The protocol of the bank in {@code dir}, whose last commit was {@code generation}: {@code
   * committedBytes} of rows, {@code seenCount} identities of {@code seenFile}.
   */
  CommitProtocol(
      Path dir,
      RowsFile rows,
      long generation,
      long committedBytes,
      String seenFile,
      long seenCount) {
    this.dir = dir;
    this.rows = rows;
    this.generation = generation;
    this.committedBytes = committedBytes;
    this.committedSeen = seenFile;
    this.committedSeenCount = seenCount;
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
    Retention.Result compaction;
    Long compactedBytes = null;
    String previousSeen = seen.file();
    String seenName;
    try {
      rows.sync();
      compaction = compactBefore == null ? null : Retention.compact(live, compactBefore, episodes);
      if (compaction != null && compaction.compacted() > 0) {
        rows.close();
        compactedBytes = RowsFile.writeWhole(dir.resolve(COMPACTED_ROWS), compaction.kept());
        OwnerOnly.createFileIfMissing(dir.resolve(COMPACTED_EPISODES));
        MAPPER
            .writerWithDefaultPrettyPrinter()
            .writeValue(dir.resolve(COMPACTED_EPISODES).toFile(), compaction.episodes());
      }
      long bytes = rows.size();
      seenName = seen.commit(dir, generation + 1);
      generation++;
      try {
        writeCheckpoint(bytes, seen, compactedBytes, queues);
      } catch (IOException | RuntimeException e) {
        generation--;
        throw e;
      }
      committedBytes = compactedBytes != null ? compactedBytes : bytes;
      committedSeen = seenName;
      committedSeenCount = seen.size();
    } catch (IOException | RuntimeException e) {
      rollBack(seen, e); // before the commit point: as if the commit had never begun
      throw e;
    }
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

  /**
   * Undoes what a commit or the appends before it wrote, when they failed before the commit point
   * (a disk that filled, say): the rows past the committed length are cut off (what is still
   * buffered is dropped), the temporary files of a compaction and the identities past the committed
   * ones are removed. The bank then reads back exactly as its last commit left it; it must be
   * opened again to deposit more. Needs no free space. Whatever cannot be undone is left for the
   * next {@link EmoBank#open}, which recovers it; {@code failure} carries it as suppressed.
   */
  @Override
  public void rollBack(SeenIdentities seen, Exception failure) {
    try {
      rows.rollBack(committedBytes);
      Files.deleteIfExists(dir.resolve(COMPACTED_ROWS));
      Files.deleteIfExists(dir.resolve(COMPACTED_EPISODES));
      seen.rollBack(dir, committedSeen, committedSeenCount);
    } catch (IOException | RuntimeException e) {
      failure.addSuppressed(e);
    }
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
