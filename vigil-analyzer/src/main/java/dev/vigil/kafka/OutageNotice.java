package dev.vigil.kafka;

import dev.vigil.io.Notice;
import dev.vigil.observe.Timestamps;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Says that Kafka cannot be reached: the first failure at once, then at most one line a minute
 * while the outage lasts, and one line when it is over (docs/DESIGN.md#bad-input).
 */
final class OutageNotice {
  static final Duration EVERY = Duration.ofMinutes(1);

  private final String command;
  private final String bootstrap;
  private final Clock clock;
  private final PrintWriter err;
  private Instant since;
  private Instant lastLine;
  private long failures;

  OutageNotice(String command, String bootstrap, Clock clock, PrintWriter err) {
    this.command = command;
    this.bootstrap = bootstrap;
    this.clock = clock;
    this.err = err;
  }

  /** An attempt failed with {@code cause}; {@code waiting} says what is kept meanwhile. */
  void failed(Throwable cause, String waiting) {
    Instant now = clock.instant();
    failures++;
    if (since == null) {
      since = now;
    }
    if (lastLine == null || Duration.between(lastLine, now).compareTo(EVERY) >= 0) {
      lastLine = now;
      err.println(
          Notice.line(
              now,
              command,
              Notice.Level.WARN,
              "Kafka at "
                  + bootstrap
                  + " cannot be reached or "
                  + "refuses ("
                  + describe(cause)
                  + ") since "
                  + Timestamps.format(since)
                  + ", "
                  + failures
                  + " attempts; "
                  + waiting
                  + "; retrying with backoff"));
      err.flush();
    }
  }

  /** An attempt succeeded: ends the outage with one line, if there was one. */
  void reached() {
    if (since != null) {
      Instant now = clock.instant();
      err.println(
          Notice.line(
              now,
              command,
              Notice.Level.INFO,
              "Kafka at "
                  + bootstrap
                  + " reached again after "
                  + failures
                  + " failed attempts since "
                  + Timestamps.format(since)));
      err.flush();
      since = null;
      lastLine = null;
      failures = 0;
    }
  }

  /** Whether an outage is going on. */
  boolean ongoing() {
    return since != null;
  }

  private static String describe(Throwable cause) {
    Throwable c = cause;
    while (c.getCause() != null && c.getMessage() == null) {
      c = c.getCause();
    }
    return c.getClass().getSimpleName() + (c.getMessage() == null ? "" : ": " + c.getMessage());
  }
}
