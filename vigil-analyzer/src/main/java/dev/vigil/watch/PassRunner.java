package dev.vigil.watch;

import dev.vigil.orchestrate.PassOptions;
import dev.vigil.orchestrate.PassResult;
import java.io.IOException;

/**
 * Runs one reflective pass for {@code watch} and writes its artifacts ({@link
 * dev.vigil.api.Analyzer#run(PassOptions)} in production); a test swaps in one that fails, to see
 * {@code watch} survive it.
 */
@FunctionalInterface
public interface PassRunner {
  /** Runs the pass over these options. */
  PassResult run(PassOptions options) throws IOException;
}
