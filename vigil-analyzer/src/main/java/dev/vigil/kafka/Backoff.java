package dev.vigil.kafka;

import java.time.Duration;

/**
 * The pause before the next attempt to reach Kafka: one second, doubled after each failure up to 30
 * seconds.
 */
final class Backoff {
  static final Duration FIRST = Duration.ofSeconds(1);
  static final Duration MAX = Duration.ofSeconds(30);

  private Duration next = FIRST;

  /** The pause before the next attempt; the one after is twice as long, up to {@link #MAX}. */
  Duration failed() {
    Duration d = next;
    next = next.multipliedBy(2).compareTo(MAX) > 0 ? MAX : next.multipliedBy(2);
    return d;
  }

  /** An attempt succeeded: the next failure starts again from {@link #FIRST}. */
  void succeeded() {
    next = FIRST;
  }
}
