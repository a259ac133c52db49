package dev.vigil.watch;

import dev.vigil.ingest.QueueSource;
import dev.vigil.ingest.QueueSpills;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.Timestamps;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import net.openhft.chronicle.queue.ChronicleQueue;

/**
 * Waits for the agent to create its queue (docs/DESIGN.md#bad-input): a {@code watch} started
 * beside the agent (a service manager, a container sidecar) usually starts first, and the agent
 * creates its queue only on its first tool call. One line says so; the wait ends when the queue can
 * be opened, or when {@code watch} is asked to stop.
 */
final class QueueArrival {
  /** How often the directory is looked at while waiting. */
  static final long POLL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

  /**
   * Looks at a queue whose files are there but cannot be opened yet (the agent is still creating
   * them) before naming it as unreadable: about 10 s.
   */
  static final int OPEN_ATTEMPTS = 200;

  private QueueArrival() {}

  /**
   * Returns at once when {@code dir} is a queue; else prints one line and waits for it. The loop's
   * thread is unparked by {@link Watcher#stop()}.
   *
   * @return true when the queue is there, false when {@code stopping} became true first
   * @throws IllegalArgumentException naming the path when it can never be a queue, or its files
   *     stay unreadable
   */
  // the probe is opened only to see that the queue can be read, and closed at once
  @SuppressWarnings("try")
  static boolean await(Path dir, BooleanSupplier stopping, Clock clock, PrintWriter out) {
    boolean said = false;
    int failedOpens = 0;
    while (!stopping.getAsBoolean()) {
      if (QueueSource.isCreated(dir)) {
        QueueSpills.importPending(dir, "watch");
        try (ChronicleQueue probe = EventQueues.openForReading(dir)) {
          return true;
        } catch (RuntimeException stillBeingCreated) {
          if (++failedOpens >= OPEN_ATTEMPTS) {
            throw new IllegalArgumentException(
                "queue directory "
                    + dir
                    + " holds queue files that cannot be read: "
                    + stillBeingCreated.getMessage(),
                stillBeingCreated);
          }
        }
      }
      if (!said) {
        out.println(
            Timestamps.format(clock.instant())
                + " watch waiting: queue "
                + dir
                + (Files.exists(dir) ? " holds no Chronicle queue yet" : " does not exist yet")
                + " (the agent creates it on its first tool call); tailing it once it does");
        out.flush();
        said = true;
      }
      LockSupport.parkNanos(POLL_NANOS);
    }
    return false;
  }
}
