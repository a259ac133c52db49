/**
 * The adaptation layer's prompt half (docs/ADAPTATION.md#prompt-adaptation): finds the marked
 * sections of an agent's prompt, replaces only the adaptive section's content, proves on the final
 * bytes that the core identity and everything else are untouched, and keeps every version under
 * {@code OUT/prompts/} so that any one can be restored.
 *
 * <p>The entry point is {@link dev.vigil.adapt.prompt.PromptAdaptation#adapt}; its result is a
 * {@link dev.vigil.adapt.prompt.PromptOutcome}. {@link dev.vigil.adapt.prompt.PromptRollback}
 * restores a kept version.
 */
package dev.vigil.adapt.prompt;
