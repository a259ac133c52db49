package dev.vigil.observe.writer;

import dev.vigil.observe.capture.CapturedCall;
import dev.vigil.observe.capture.Site;

/** Captured calls for the writer's tests. */
final class Calls {
  private Calls() {}

  /**
   * A call of {@code site} on {@code thread} that returned {@code result}, outside any turn or
   * framework.
   */
  static CapturedCall returned(
      Site site, long startNanos, long endNanos, String thread, Object result, Object... args) {
    return new CapturedCall(
        site,
        startNanos,
        endNanos,
        thread,
        args,
        result,
        null,
        null,
        null,
        null,
        null,
        null,
        false,
        null);
  }
}
