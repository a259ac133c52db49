package dev.vigil.orchestrate;

import dev.vigil.emobank.EmoBank;
import java.io.IOException;

/**
 * The work of {@code update_eb_from_logs} (docs/DESIGN.md#the-emobank and docs/DETECTORS.md): read
 * the window once, each event to the detectors and to the bank, appraise the window's events and
 * the detectors' derived events, deposit them exactly once, take the snapshot and commit.
 */
@FunctionalInterface
public interface BankStage {
  /**
   * Updates the agent's bank from the window.
   *
   * @param window the window's events
   * @param bank the agent's bank, opened by the pass (read-only as last committed in {@code watch})
   */
  BankUpdate update(PassContext pass, Window window, EmoBank bank) throws IOException;
}
