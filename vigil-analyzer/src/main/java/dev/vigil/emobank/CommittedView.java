package dev.vigil.emobank;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.ingest.QueuePositions;
import java.time.Instant;
import java.util.List;

/**
 * The journal of a committed view ({@link EmoBank#openCommitted}): the bank is read as its last
 * commit left it while another process or thread (the tail of {@code watch}) keeps depositing and
 * committing, so the view never writes a row, an identity or a checkpoint. Its deposits stay in
 * memory, where the reader's snapshot counts them.
 */
final class CommittedView implements Journal {
  @Override
  public boolean append(EmotionRow row) {
    return false;
  }

  @Override
  public Retention.Result commit(
      List<EmotionRow> live,
      ObjectNode episodes,
      SeenIdentities seen,
      QueuePositions queues,
      Instant compactBefore) {
    return null;
  }

  @Override
  public void close() {}
}
