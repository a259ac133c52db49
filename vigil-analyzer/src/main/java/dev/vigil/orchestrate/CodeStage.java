package dev.vigil.orchestrate;

import dev.vigil.adapt.code.CodeOutcome;
import dev.vigil.diagnose.Diagnosis;
import dev.vigil.diagnose.detect.Detection;
import java.io.IOException;
import java.util.List;

/**
 * The work of {@code save_proposal} (docs/ADAPTATION.md#code-proposals): code proposals from the
 * diagnosis, and the LLM's diff.
 */
@FunctionalInterface
public interface CodeStage {
  /**
   * Proposes code changes from the diagnosis.
   *
   * @param llmDiff the LLM's diff that passed its checks, or null
   */
  CodeOutcome propose(
      PassContext pass, Diagnosis diagnosis, List<Detection> detections, OfferedDiff llmDiff)
      throws IOException;
}
