package dev.vigil.orchestrate;

import java.util.List;

/**
 * What self-repair (docs/STAGES.md#self-repair) did in a pass.
 *
 * @param internalThorns faults inside Vigil's own stages this pass
 * @param resolved internal thorns of earlier passes that did not recur
 * @param fallback the fallback taken after a failed stage, in words, or null
 */
public record SelfRepair(
    List<InternalThorn> internalThorns, List<InternalThorn> resolved, String fallback) {
  /** Copies the lists. */
  public SelfRepair {
    internalThorns = List.copyOf(internalThorns);
    resolved = List.copyOf(resolved);
  }
}
