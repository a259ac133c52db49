package dev.vigil.observe.capture;

/**
 * Where the recorders hand what they captured: the event writer, which builds and appends the
 * events on its own thread. {@link #submit} runs on the application's thread, so it must be quick
 * and must never throw.
 */
public interface CaptureSink {
  /** Takes a finished call or one side of a turn. */
  void submit(Captured captured);
}
