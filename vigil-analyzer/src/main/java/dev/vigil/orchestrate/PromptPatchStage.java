package dev.vigil.orchestrate;

import dev.vigil.adapt.prompt.AdaptiveContent;
import dev.vigil.adapt.prompt.PromptAdaptation;
import dev.vigil.adapt.prompt.PromptOutcome;
import dev.vigil.diagnose.Diagnosis;

/**
 * The default {@link PromptStage}: the adaptive section rewritten from the diagnosis, through the
 * prompt guard.
 */
final class PromptPatchStage implements PromptStage {
  @Override
  public PromptOutcome adapt(PassContext pass, Diagnosis diagnosis, String note) {
    PassOptions o = pass.options();
    if (o.prompt() == null) {
      return null;
    }
    AdaptiveContent content =
        AdaptiveContent.of(diagnosis, note, o.now(), String.valueOf(pass.passNumber()));
    return PromptAdaptation.adapt(o.prompt(), content, o.out(), pass.clock());
  }
}
