package dev.vigil.orchestrate;

import dev.vigil.adapt.code.Check;
import java.util.List;

/**
 * A diff offered by the LLM through {@code emit_unified_diff} that passed its checks.
 *
 * @param diff the unified diff
 * @param files the files it changes, relative to {@code --repo}
 * @param checks the checks, in the order they ran
 * @param model who wrote it, for the PR note
 */
public record OfferedDiff(String diff, List<String> files, List<Check> checks, String model) {
  /** Copies the lists. */
  public OfferedDiff {
    files = List.copyOf(files);
    checks = List.copyOf(checks);
  }
}
