package dev.vigil.orchestrate;

import dev.vigil.adapt.prompt.PromptOutcome;
import dev.vigil.diagnose.Diagnosis;
import java.io.IOException;

/**
 * The work of {@code build_prompt_patch} (docs/ADAPTATION.md#prompt-adaptation): the prompt's
 * adaptive section from the diagnosis.
 */
@FunctionalInterface
public interface PromptStage {
  /**
   * Adapts the prompt's adaptive section.
   *
   * @param note the reflection for the adaptive section (the LLM's, or the deterministic one)
   * @return what the guard did, or null when the pass has no {@code --prompt}
   */
  PromptOutcome adapt(PassContext pass, Diagnosis diagnosis, String note) throws IOException;
}
