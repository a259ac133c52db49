package dev.vigil.observe.agent;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * The agent's only voice: one line on the host's stderr, prefixed {@code [vigil]}, at most once a
 * minute per topic, so that a problem inside Vigil is explained without flooding the application's
 * output.
 */
public final class Stderr {
  private static final long INTERVAL = TimeUnit.MINUTES.toNanos(1);
  private static final ConcurrentHashMap<String, Long> LAST = new ConcurrentHashMap<>();

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

  /** Prints one line now. */
  public static void line(String message) {
    System.err.println("[vigil] " + message);
  }
}
