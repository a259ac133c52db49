package dev.vigil.adapt.code;

import java.util.List;

/**
 * What a {@link Strategy} did to one file.
 *
 * @param source the rewritten content (equal to the input when nothing changed)
 * @param changes one line per change, {@code line N: what and why}, for the PR note
 * @param notes what was found but left alone, and why
 */
public record Transformation(String source, List<String> changes, List<String> notes) {

  /** Copies the lists. */
  public Transformation {
    changes = List.copyOf(changes);
    notes = List.copyOf(notes);
  }

  /** No change to a file JavaParser cannot parse, with a note naming the file and the reason. */
  static Transformation unparsed(String file, String source, String reason) {
    return new Transformation(
        source,
        List.of(),
        List.of(file + ": not parsed by JavaParser (" + reason + "); left unchanged"));
  }

  /** No change to a file whose rewrite failed, with a note naming the file and the failure. */
  static Transformation unchanged(String file, String source, RuntimeException failure) {
    return new Transformation(
        source,
        List.of(),
        List.of(file + ": the rewrite failed (" + failure + "); left unchanged"));
  }

  /** True when the rewrite changed something. */
  public boolean changed() {
    return !changes.isEmpty();
  }
}
