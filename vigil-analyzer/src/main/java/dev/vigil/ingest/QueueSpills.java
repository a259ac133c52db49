package dev.vigil.ingest;

import dev.vigil.io.Notice;
import dev.vigil.observe.SpillImport;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Imports the spill files of a queue before a command of the analyzer reads it: the events of
 * processes that ended before their agent had opened the queue (docs/DESIGN.md#spill-files). What
 * cannot be imported is said on stderr, a {@code WARN} line once per message, and the command reads
 * the queue as it is. {@code watch} and {@code ship}, which tail the queue, import again while they
 * wait for events ({@link #importIfDue}).
 */
public final class QueueSpills {
  /** How often a tailing command looks for new spill files, at most. */
  private static final long CHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

  /** The messages already said, so that a tailing command says each once. */
  private static final Set<String> SAID = ConcurrentHashMap.newKeySet();

  private final Path dir;
  private final String command;
  private long lastCheck;
  private boolean checked;

  /** For a command that tails the queue in {@code dir}. */
  public QueueSpills(Path dir, String command) {
    this.dir = dir;
    this.command = command;
  }

  /**
   * Imports the spill files waiting in {@code dir}, if any.
   *
   * @return how many events were imported
   */
  public static int importPending(Path dir, String command) {
    try {
      SpillImport.Imported done = SpillImport.importPending(dir);
      done.problems().forEach(p -> say(command, p));
      return done.events();
    } catch (RuntimeException e) {
      say(
          command,
          "spill files of the queue "
              + dir
              + " were not imported ("
              + e.getMessage()
              + "): their events are not read until they are");
      return 0;
    }
  }

  /**
   * Imports the spill files waiting, unless it looked less than a second ago ({@code nowNanos} from
   * {@link System#nanoTime}).
   *
   * @return how many events were imported
   */
  public int importIfDue(long nowNanos) {
    if (checked && nowNanos - lastCheck < CHECK_NANOS) {
      return 0;
    }
    checked = true;
    lastCheck = nowNanos;
    return importPending(dir, command);
  }

  private static void say(String command, String message) {
    if (SAID.add(message)) {
      System.err.println(Notice.line(Instant.now(), command, Notice.Level.WARN, message));
    }
  }
}
