package dev.vigil.eval;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * Progress lines of a long evaluation: one after every {@code everySessions} sessions, or sooner
 * when {@code everyTime} has passed on the clock since the last line, and one at the end.
 */
final class Progress {
  private final Consumer<String> sink;
  private final Clock clock;
  private final int everySessions;
  private final Duration everyTime;
  private Instant start;
  private Instant lastLine;
  private int total;

  Progress(Consumer<String> sink, Clock clock, int everySessions, Duration everyTime) {
    this.sink = sink;
    this.clock = clock;
    this.everySessions = everySessions;
    this.everyTime = everyTime;
  }

  void start(int sessions) {
    total = sessions;
    start = clock.instant();
    lastLine = start;
    sink.accept(sessions + " labelled sessions to analyze, one pass each");
  }

  /** Called after each session's pass, with how many are done. */
  void done(int n) {
    Instant t = clock.instant();
    boolean last = n == total;
    if (last || n % everySessions == 0 || !t.isBefore(lastLine.plus(everyTime))) {
      lastLine = t;
      sink.accept(
          String.format(
              Locale.ROOT,
              "%d/%d sessions (%.1f s)",
              n,
              total,
              Duration.between(start, t).toMillis() / 1000.0));
    }
  }
}
