package dev.vigil.adapt.code;

import java.util.List;

/**
 * What a {@link Strategy} did to one file.
 *
 * @param source  the rewritten content (equal to the input when nothing changed)
 * @param changes one line per change, {@code line N: what and why}, for the PR note
 * @param notes   what was found but left alone, and why
 */
public record Transformation(String source, List<String> changes, List<String> notes) {

  /** Copies the lists. */
  public Transformation {
    changes = List.copyOf(changes);
    notes = List.copyOf(notes);
  }

  /** True when the rewrite changed something. */
  public boolean changed() {
    return !changes.isEmpty();
  }
}
