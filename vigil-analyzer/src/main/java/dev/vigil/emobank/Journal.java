package dev.vigil.emobank;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.ingest.QueuePositions;
import java.io.IOException;
import java.time.Instant;
import java.util.List;

/**
 * Where a bank's deposits go besides its memory: the files of the bank's one writer ({@link
 * CommitProtocol}), or nowhere for a reader's view of the last commit ({@link CommittedView}).
 */
interface Journal extends AutoCloseable {
  /** Appends a deposited row; false when this journal keeps no rows. */
  boolean append(EmotionRow row) throws IOException;

  /**
   * Makes the deposits so far durable and exactly-once, with the queue positions, and compacts the
   * live rows older than {@code compactBefore} (null: none).
   *
   * @return the compaction, whose kept rows and episodes replace the bank's; null when nothing was
   *     compacted
   */
  Retention.Result commit(
      List<EmotionRow> live,
      ObjectNode episodes,
      SeenIdentities seen,
      QueuePositions queues,
      Instant compactBefore)
      throws IOException;

  /**
   * Undoes what was written since the last commit, after a write failed before the commit point
   * (docs/EMOBANK.md); anything that cannot be undone is added to {@code failure} as suppressed.
   * Nothing to do for a journal that writes nothing.
   */
  default void rollBack(SeenIdentities seen, Exception failure) {}

  @Override
  void close();
}
