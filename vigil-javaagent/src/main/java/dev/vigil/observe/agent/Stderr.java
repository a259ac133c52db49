package dev.vigil.observe.agent;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The agent's only voice: one line on the host's stderr, prefixed {@code [vigil]}, at most once a
 * minute per topic, so that a problem inside Vigil is explained without flooding the application's
 * output.
 */
public final class Stderr {
  /**
   * A minute; a test of a child JVM that must see exactly one line however slow the machine sets a
   * longer one with the system property {@code vigil.stderr.interval-ms}.
   */
  private static final long INTERVAL = interval();

  private static final ConcurrentHashMap<String, Long> LAST = new ConcurrentHashMap<>();

  /** {@link #line}, for the configuration's warnings in {@code premain}. */
  public static final Consumer<String> LINES = new Lines();

  private Stderr() {}

  /** Prints {@code message} unless a line of the same topic was printed in the last minute. */
  public static void warn(String topic, String message) {
    warn(topic, () -> message);
  }

  /** As {@link #warn(String, String)}, building the message only when it is printed. */
  public static void warn(String topic, Supplier<String> message) {
    long now = System.nanoTime();
    boolean[] print = {false};
    LAST.compute(
        topic,
        (k, last) -> {
          if (last == null || now - last >= INTERVAL) {
            print[0] = true;
            return now;
          }
          return last;
        });
    if (print[0]) {
      line(message.get());
    }
  }

  private static long interval() {
    try {
      return TimeUnit.MILLISECONDS.toNanos(
          Long.getLong("vigil.stderr.interval-ms", TimeUnit.MINUTES.toMillis(1)));
    } catch (SecurityException e) {
      return TimeUnit.MINUTES.toNanos(1);
    }
  }

  /** Prints one line now. */
  public static void line(String message) {
    System.err.println("[vigil] " + message);
  }

  /**
   * {@link #line} as a consumer, a class rather than a method reference: Vigil's start links no
   * lambda (docs/DESIGN.md#the-start-path).
   */
  private static final class Lines implements Consumer<String> {
    @Override
    public void accept(String message) {
      line(message);
    }
  }
}
