package dev.vigil.observe;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import net.openhft.chronicle.core.time.TimeProvider;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;

/**
 * Opens the Chronicle Queue directories that hold events. Loading this class turns Chronicle's
 * usage analytics off ({@code chronicle.analytics.disable=true}) unless the property was already
 * set, so callers that touch this class first never let Chronicle open a socket.
 */
public final class EventQueues {
  static {
    if (System.getProperty("chronicle.analytics.disable") == null) {
      System.setProperty("chronicle.analytics.disable", "true");
    }
  }

  /** The file Chronicle keeps in every queue directory. */
  public static final String METADATA_FILE = "metadata.cq4t";

  private EventQueues() {}

  /** Opens (creating if missing) a queue for appending events. */
  public static ChronicleQueue openForWriting(Path dir) {
    return SingleChronicleQueueBuilder.binary(dir.toFile()).build();
  }

  /**
   * Opens (creating if missing) a queue for appending events, whose day files are chosen by {@code
   * time} rather than by a read of the system clock at every append.
   */
  public static ChronicleQueue openForWriting(Path dir, TimeProvider time) {
    return SingleChronicleQueueBuilder.binary(dir.toFile()).timeProvider(time).build();
  }

  /**
   * Opens an existing queue for reading only: nothing in the directory is created or changed.
   *
   * @throws IllegalArgumentException naming the path when it is missing, not a directory or not a
   *     queue
   */
  public static ChronicleQueue openForReading(Path dir) {
    checkIsQueue(dir);
    return SingleChronicleQueueBuilder.binary(dir.toFile()).readOnly(true).build();
  }

  /**
   * Checks that {@code dir} is a Chronicle queue directory.
   *
   * @throws IllegalArgumentException naming the path and what is wrong with it
   */
  public static void checkIsQueue(Path dir) {
    if (!Files.exists(dir)) {
      throw new IllegalArgumentException("queue directory " + dir + " does not exist");
    }
    if (!Files.isDirectory(dir)) {
      throw new IllegalArgumentException("queue path " + dir + " is not a directory");
    }
    if (!Files.isReadable(dir)) {
      throw new IllegalArgumentException("queue directory " + dir + " is not readable");
    }
    if (!Files.exists(dir.resolve(METADATA_FILE)) && !hasCycleFiles(dir)) {
      throw new IllegalArgumentException(
          "directory "
              + dir
              + " is not a Chronicle queue (it has no "
              + METADATA_FILE
              + " and no .cq4 files)");
    }
  }

  private static boolean hasCycleFiles(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.anyMatch(f -> f.getFileName().toString().endsWith(".cq4"));
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "queue directory " + dir + " cannot be listed: " + e.getMessage(), e);
    }
  }
}
