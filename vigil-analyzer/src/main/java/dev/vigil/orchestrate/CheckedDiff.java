package dev.vigil.orchestrate;

import dev.vigil.adapt.code.Check;
import java.util.List;

/**
 * A diff offered by the LLM through {@code emit_unified_diff}, with the checks it passed.
 *
 * @param diff   the unified diff
 * @param files  the files it changes, relative to {@code --repo}
 * @param checks the checks, in the order they ran
 */
public record CheckedDiff(String diff, List<String> files, List<Check> checks) {
  /** Copies the lists. */
  public CheckedDiff {
    files = List.copyOf(files);
    checks = List.copyOf(checks);
  }
}
