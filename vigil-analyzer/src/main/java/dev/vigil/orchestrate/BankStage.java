package dev.vigil.orchestrate;

import dev.vigil.diagnose.detect.Detection;
import dev.vigil.emobank.EmoBank;
import java.io.IOException;
import java.util.List;

/**
 * The work of {@code update_eb_from_logs} (SPEC section 4.3): appraise the window's events and the detectors' derived
 * events, deposit them into the bank exactly once, take the snapshot and commit.
 */
@FunctionalInterface
public interface BankStage {
  /**
   * @param window     the window's events
   * @param detections what the detectors found in it (their derived events are deposited too)
   * @param bank       the agent's bank, opened by the pass (read-only as last committed in {@code watch})
   */
  BankUpdate update(PassContext pass, Window window, List<Detection> detections, EmoBank bank) throws IOException;
}
