package dev.vigil.emobank;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.ingest.QueuePositions;
import dev.vigil.io.AtomicWrite;
import dev.vigil.io.OwnerOnly;
import dev.vigil.observe.Timestamps;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Collections;
import java.util.List;

/**
 * The EmoBank directory (docs/DESIGN.md#the-emobank-directory): {@code emotions.jsonl} (append-only
 * rows), {@code state.json} (the last snapshot) and {@code checkpoint.json} with {@code
 * seen-N.bin}, which make deposits exactly-once.
 *
 * <p>Crash safety. Deposits are committed by the {@link CommitProtocol}. When a pass dies before
 * its commit (a {@code kill -9}), the next {@link #open} finds bytes past the committed length: it
 * copies them to {@code recovered-N.jsonl} (nothing stored is lost) and cuts them off, so the rerun
 * deposits the same events again and the bank ends as if the first pass had never started;
 * identities past the committed count are ignored.
 *
 * <p>Corruption. A committed row that cannot be read, a file the bank did not write, or an {@code
 * emotions.jsonl} shorter than the checkpoint says stops {@link #open} with a {@link
 * BankCorruptException} naming the file and line; nothing in the directory is written in that case.
 *
 * <p>Amend rows. A row marked {@code amend} replaces the live row before it, for every reader of
 * {@link #liveRows()}.
 *
 * <p>Committed view. {@link #openCommitted} reads the bank as its last commit left it while another
 * process (the tail of {@code watch}) keeps depositing and committing ({@link CommittedView}); only
 * {@code state.json} is written.
 */
public final class EmoBank implements AutoCloseable {
  /** The rows file. */
  public static final String EMOTIONS = "emotions.jsonl";

  /** The last snapshot. */
  public static final String STATE = "state.json";

  /** The commit record. */
  public static final String CHECKPOINT = "checkpoint.json";

  /** Per-episode totals of compacted rows ({@link Retention}). */
  public static final String EPISODES = "episodes.json";

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final Path dir;
  private final LiveRows live = new LiveRows();
  private final SeenIdentities seen;
  private final QueuePositions queues;
  private final Journal journal;
  private ObjectNode episodes;
  private long rowsAppended;

  /** A write failed and the files were rolled back to the last commit ({@link #rollBack}). */
  private boolean rolledBack;

  private EmoBank(
      Path dir, SeenIdentities seen, QueuePositions queues, ObjectNode episodes, Journal journal) {
    this.dir = dir;
    this.seen = seen;
    this.queues = queues;
    this.episodes = episodes;
    this.journal = journal;
  }

  /**
   * Opens (creating when missing) the bank in {@code dir}, validates it, and recovers a crashed
   * pass's uncommitted rows.
   *
   * @throws BankCorruptException naming the file and line; the directory is left untouched
   */
  public static EmoBank open(Path dir) throws IOException {
    OwnerOnly.createDirectories(dir);
    BankFiles.checkNames(dir);
    BankFiles.removeStaleTemporaries(dir, Instant.now());
    Path checkpointFile = dir.resolve(CHECKPOINT);
    RowsFile rows = new RowsFile(dir.resolve(EMOTIONS));
    long fileBytes = rows.size();
    long committed = fileBytes;
    Checkpoint cp = null;
    if (Files.exists(checkpointFile)) {
      cp = Checkpoint.read(checkpointFile);
      committed = cp.emotionsBytes();
      if (cp.compactionBytes() != null) {
        // a compaction was committed but its files were not all moved into place: finish it
        CommitProtocol.finishCompaction(dir);
        committed = cp.compactionBytes();
        fileBytes = rows.size();
      }
      BankFiles.checkLength(dir, fileBytes, committed);
    }
    SeenIdentities seen =
        cp == null
            ? SeenIdentities.none()
            : SeenIdentities.read(dir, cp.seenFile(), cp.eventsDeposited());
    CommitProtocol protocol =
        cp == null
            ? new CommitProtocol(dir, rows, committed)
            : new CommitProtocol(
                dir, rows, cp.generation(), committed, cp.seenFile(), cp.eventsDeposited());
    EmoBank bank =
        new EmoBank(
            dir,
            seen,
            cp == null ? QueuePositions.empty() : cp.queues(),
            BankFiles.readEpisodes(dir),
            protocol);
    rows.read(committed, bank::accept);
    if (fileBytes > committed) {
      rows.moveTail(committed, dir.resolve("recovered-" + protocol.nextGeneration() + ".jsonl"));
    }
    if (cp == null) {
      // a new bank (or rows written by hand): commit what is there before the first deposit, so
      // that rows a
      // crashed first pass appends are recognized as uncommitted
      protocol.writeCheckpoint(committed, seen, null, bank.queues);
    }
    return bank;
  }

  /**
   * A deposit a committed view's reader leaves to the bank's writer: the event's identity, its row,
   * and whether a detector derived it (rather than it being an event of the input).
   */
  public record PendingDeposit(long identity, EmotionRow row, boolean derived) {}

  /**
   * Opens a read-only view of the bank in {@code dir} as its last commit left it (empty when there
   * is none yet): the committed rows and identities; rows appended after the commit are not read,
   * nothing is recovered or written but {@code state.json} (see the class comment).
   *
   * @throws BankCorruptException naming the file and line
   */
  public static EmoBank openCommitted(Path dir) throws IOException {
    Path checkpointFile = dir.resolve(CHECKPOINT);
    if (!Files.exists(checkpointFile)) {
      return new EmoBank(
          dir,
          SeenIdentities.none(),
          QueuePositions.empty(),
          Retention.emptyEpisodes(),
          new CommittedView());
    }
    BankFiles.checkNames(dir);
    Checkpoint cp = Checkpoint.read(checkpointFile);
    if (cp.compactionBytes() != null) {
      throw new IOException(
          "the EmoBank "
              + dir
              + " is in the middle of a compaction; its writer finishes it when "
              + "it next opens the bank");
    }
    RowsFile rows = new RowsFile(dir.resolve(EMOTIONS));
    BankFiles.checkLength(dir, rows.size(), cp.emotionsBytes());
    EmoBank bank =
        new EmoBank(
            dir,
            SeenIdentities.read(dir, cp.seenFile(), cp.eventsDeposited()),
            cp.queues(),
            BankFiles.readEpisodes(dir),
            new CommittedView());
    rows.read(cp.emotionsBytes(), bank::accept);
    return bank;
  }

  /** Whether this is a committed view ({@link #openCommitted}). */
  public boolean isCommittedView() {
    return journal instanceof CommittedView;
  }

  private void accept(EmotionRow row) {
    if (row.amend() && !live.isEmpty()) {
      live.set(live.size() - 1, row.live());
    } else {
      live.add(row.live());
    }
  }

  /** The live rows, oldest first: amended rows appear as their replacement. */
  public List<EmotionRow> liveRows() {
    return Collections.unmodifiableList(live);
  }

  /**
   * The live rows with a time in {@code [from, to]}, oldest first: a view of the bank's rows as
   * they are now (4 bytes a row), each row made when read; a later commit that compacts the bank
   * leaves the view stale.
   */
  public List<EmotionRow> liveRows(Instant from, Instant to) {
    long lo = Timestamps.epochNanos(from);
    long hi = Timestamps.epochNanos(to);
    int[] at = new int[16];
    int n = 0;
    for (int i = 0; i < live.size(); i++) {
      long t = live.tsNanos(i);
      if (t >= lo && t <= hi) {
        if (n == at.length) {
          at = java.util.Arrays.copyOf(at, n * 2);
        }
        at[n++] = i;
      }
    }
    int[] rows = at;
    int count = n;
    return new java.util.AbstractList<>() {
      @Override
      public EmotionRow get(int i) {
        java.util.Objects.checkIndex(i, count);
        return live.get(rows[i]);
      }

      @Override
      public int size() {
        return count;
      }
    };
  }

  /** The last live row, or null. */
  public EmotionRow lastRow() {
    return live.isEmpty() ? null : live.get(live.size() - 1);
  }

  /**
   * Whether the event with this identity was deposited already (in a committed pass or this one).
   */
  public boolean isDeposited(long identity) {
    return seen.contains(identity);
  }

  /** The number of distinct events deposited. */
  public int depositedEvents() {
    return seen.size();
  }

  /**
   * Deposits one appraised event under the {@link DepositPolicy}, unless its identity was deposited
   * already.
   *
   * @return the rows appended (empty when dropped or already deposited)
   */
  public List<EmotionRow> deposit(long identity, EmotionRow row) throws IOException {
    if (!seen.add(identity)) {
      return List.of();
    }
    checkNotRolledBack();
    List<EmotionRow> rows = DepositPolicy.deposit(lastRow(), row);
    for (EmotionRow r : rows) {
      try {
        if (journal.append(r)) {
          rowsAppended++;
        }
      } catch (IOException | RuntimeException e) {
        rollBack(e);
        throw e;
      }
      accept(r);
    }
    return rows;
  }

  /** Rows appended since this bank was opened. */
  public long rowsAppended() {
    return rowsAppended;
  }

  /**
   * Where the reading of each queue stopped; recorded here, committed with the rows by {@link
   * #commit}.
   */
  public QueuePositions queuePositions() {
    return queues;
  }

  /**
   * Where a queue's reading stopped at the last commit of the bank in {@code dir}, read from its
   * checkpoint without opening the bank; -1 when the bank or the queue's entry does not exist.
   *
   * @throws BankCorruptException when the checkpoint is not readable JSON
   */
  public static long committedQueuePosition(Path dir, String queueKey) throws IOException {
    Path checkpointFile = dir.resolve(CHECKPOINT);
    return Files.exists(checkpointFile)
        ? Checkpoint.queuePosition(checkpointFile, queueKey)
        : QueuePositions.NONE;
  }

  /**
   * Makes this pass's deposits durable and exactly-once, then writes {@code state.json}.
   *
   * @param state the snapshot to keep as the bank's last state; null keeps the last one
   */
  public void commit(JsonNode state) throws IOException {
    commit(state, null);
  }

  /**
   * Commits like {@link #commit(JsonNode)} and compacts the live rows older than {@code
   * compactBefore} into {@code episodes.json} ({@link Retention}); null compacts nothing.
   */
  public void commit(JsonNode state, Instant compactBefore) throws IOException {
    checkNotRolledBack();
    Retention.Result compaction;
    try {
      compaction = journal.commit(live, episodes, seen, queues, compactBefore);
    } catch (IOException | RuntimeException e) {
      rolledBack = true; // the journal rolled its files back before it threw
      throw e;
    }
    if (compaction != null) {
      if (compaction.compacted() > 0) {
        live.clear();
        live.addAll(compaction.kept());
      }
      episodes = compaction.episodes();
    }
    if (state != null) {
      writeState(state);
    }
  }

  /**
   * A write failed before the commit point (a disk that filled): the bank's files are rolled back
   * to the last commit, and this bank refuses further deposits and commits (its memory holds the
   * failed deposits): open it again.
   */
  private void rollBack(Exception failure) {
    rolledBack = true;
    journal.rollBack(seen, failure);
  }

  private void checkNotRolledBack() {
    if (rolledBack) {
      throw new IllegalStateException(
          "the EmoBank "
              + dir
              + " was rolled back to its last commit after a failed write; open it again");
    }
  }

  /** The per-episode totals of compacted rows. */
  public ObjectNode episodes() {
    return episodes.deepCopy();
  }

  /**
   * Replaces {@code state.json} after a commit, for what a pass learns later (its diagnosis): a
   * provisional diagnosis of a later pass reads it when that pass cannot read the bank.
   */
  public void writeState(JsonNode state) throws IOException {
    AtomicWrite.replace(
        dir.resolve(STATE), MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(state));
  }

  /** The bank's directory. */
  public Path dir() {
    return dir;
  }

  @Override
  public void close() {
    journal.close();
    seen.close();
  }
}
