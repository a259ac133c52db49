package dev.vigil.adapt.code;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * A way to fix one family of soft failures in code (docs/ADAPTATION.md#code-proposals): it scores
 * the evidence plus the hotspots, and rewrites the files it knows how to fix. A strategy is
 * stateless and never touches the disk.
 */
public interface Strategy {

  /** The name reports use, e.g. {@code TZReceiptStrategy}. */
  String name();

  /** The PR note's title. */
  String title();

  /**
   * How strongly this strategy is called for, in {@code [0, 1]}; 0 means it does not fire.
   * Proposals are ranked by score.
   */
  double score(Evidence evidence, List<Hotspot> hotspots);

  /**
   * Rewrites one file.
   *
   * @param file the file's path relative to the repository
   * @param source its content
   * @param evidence the pass's evidence, to decide which rewrites are called for
   * @param repo the whole repository, for what one file does not say (which methods return futures)
   * @return the rewrite, possibly without changes but with notes on what was left alone and why;
   *     empty when the file holds nothing this strategy is about
   */
  Optional<Transformation> transform(Path file, String source, Evidence evidence, JavaRepo repo);

  /** The PR note's "why" paragraph, from the evidence. */
  String why(Evidence evidence);
}
