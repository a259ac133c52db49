package dev.vigil.orchestrate;

import java.nio.channels.ClosedByInterruptException;
import java.util.concurrent.CancellationException;

/**
 * A pass that {@code watch} interrupted while stopping (docs/COMMANDS.md#how-it-keeps-its-promises)
 * is cancelled, not failed: a stage's guard lets the cancellation through instead of recording it
 * as an internal thorn, so the pass ends at once and writes nothing.
 */
final class PassCancelled {
  private PassCancelled() {}

  /** Throws a {@link CancellationException} when {@code failure} comes from an interrupt. */
  static void rethrowIfCancelled(Throwable failure) {
    for (Throwable c = failure; c != null; c = c.getCause()) {
      if (c instanceof CancellationException cancelled) {
        throw cancelled;
      }
      if (c instanceof ClosedByInterruptException || c instanceof InterruptedException) {
        throw cancellation(failure);
      }
      if (c.getCause() == c) {
        break;
      }
    }
    if (Thread.currentThread().isInterrupted()) {
      throw cancellation(failure);
    }
  }

  private static CancellationException cancellation(Throwable cause) {
    CancellationException e = new CancellationException("the pass was interrupted");
    e.initCause(cause);
    return e;
  }
}
