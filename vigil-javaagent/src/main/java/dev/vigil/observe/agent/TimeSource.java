package dev.vigil.observe.agent;

import java.time.Instant;

/**
 * The agent's clocks: a monotonic reading for durations and deadlines, and the wall clock for event
 * times. The recorder, the writer and the event log read time through one, so that a test sets the
 * time rather than waits for it.
 */
public interface TimeSource {
  /** The system's clocks. */
  TimeSource SYSTEM =
      new TimeSource() {
        @Override
        public long nanoTime() {
          return System.nanoTime();
        }

        @Override
        public Instant now() {
          return Instant.now();
        }
      };

  /**
   * A monotonic reading in nanoseconds, as {@link System#nanoTime()}: only differences mean
   * anything.
   */
  long nanoTime();

  /** The wall-clock time. */
  Instant now();
}
