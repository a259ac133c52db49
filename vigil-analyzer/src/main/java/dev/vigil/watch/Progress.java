package dev.vigil.watch;

import dev.vigil.observe.Timestamps;
import java.io.PrintWriter;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.impl.RollingChronicleQueue;

/**
 * Progress lines while {@code watch} reads a backlog of at least {@value #MIN_BACKLOG} excerpts:
 * one every {@link #EVERY}, and one when the backlog is read.
 */
final class Progress {
  /** A backlog at least this long gets progress lines. */
  static final long MIN_BACKLOG = 10_000;

  /** How often a progress line is printed while reading a backlog. */
  static final Duration EVERY = Duration.ofSeconds(2);

  private final long backlog;
  private final Instant started;
  private long read;
  private Instant nextLine;
  private boolean done;

  private Progress(long backlog, Instant started) {
    this.backlog = backlog;
    this.started = started;
    this.nextLine = started.plus(EVERY);
    this.done = backlog < MIN_BACKLOG;
  }

  /**
   * The backlog after {@code position} (the last excerpt read, -1 for none); 0 when it cannot be
   * counted.
   */
  static Progress of(ChronicleQueue queue, long position, Instant now) {
    long backlog;
    try {
      long last = queue.lastIndex();
      if (last < 0 || !(queue instanceof RollingChronicleQueue rolling)) {
        backlog = 0;
      } else if (position < 0) {
        backlog = rolling.countExcerpts(queue.firstIndex(), last) + 1;
      } else {
        backlog = Math.max(0, rolling.countExcerpts(position, last));
      }
    } catch (RuntimeException e) {
      backlog = 0;
    }
    return new Progress(backlog, now);
  }

  long backlog() {
    return backlog;
  }

  /** Counts {@code n} excerpts read; prints a line when one is due. */
  void read(int n, boolean dry, Instant now, PrintWriter out) {
    if (done) {
      return;
    }
    read += n;
    if (dry) {
      done = true;
      out.println(
          Timestamps.format(now)
              + " caught up: "
              + read
              + " excerpts of the backlog read in "
              + String.format(
                  Locale.ROOT, "%.1f s", Duration.between(started, now).toMillis() / 1000.0));
      out.flush();
    } else if (!now.isBefore(nextLine)) {
      nextLine = now.plus(EVERY);
      out.println(
          Timestamps.format(now)
              + " catching up: "
              + read
              + "/"
              + backlog
              + " excerpts ("
              + Math.min(100, read * 100 / backlog)
              + "%)");
      out.flush();
    }
  }
}
