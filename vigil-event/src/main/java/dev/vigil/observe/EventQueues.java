package dev.vigil.observe;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;
import net.openhft.chronicle.core.time.TimeProvider;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.impl.StoreFileListener;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueStore;
import net.openhft.chronicle.wire.Wires;

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

  /** The page size every cycle file's length is a multiple of. */
  private static final long PAGE_BYTES = 4096;

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
    return SingleChronicleQueueBuilder.binary(dir.toFile())
        .timeProvider(time)
        .storeFileListener(OWNER_ONLY)
        .build();
  }

  /**
   * Makes each day file the queue opens for writing {@code 0600} (docs/SECURITY.md): Chronicle
   * creates them with the process's umask. Best effort: a file of another user, or a file system
   * without POSIX permissions, is left as it is.
   */
  private static final StoreFileListener OWNER_ONLY =
      new StoreFileListener() {
        @Override
        public void onAcquired(int cycle, File file) {
          OwnerOnly.restrict(file.toPath());
        }

        @Override
        public void onReleased(int cycle, File file) {}
      };

  /**
   * Opens an existing queue for reading only: nothing in the directory is created or changed.
   *
   * @throws IllegalArgumentException naming the path when it is missing, not a directory or not a
   *     queue
   */
  public static ChronicleQueue openForReading(Path dir) {
    checkIsQueue(dir);
    SingleChronicleQueue q =
        SingleChronicleQueueBuilder.binary(dir.toFile()).readOnly(true).build();
    try {
      checkCyclesReachTheirEnd(q);
    } catch (RuntimeException e) {
      q.close();
      throw e;
    }
    return q;
  }

  /**
   * Checks that every cycle file holds its last excerpt whole, and room for the header after it
   * (where a reader looks for the next one): a file cut at a page boundary in the middle of its
   * events passes the check of whole pages, and reading past its end would fault.
   *
   * @throws IllegalArgumentException naming the file and where its events end
   */
  private static void checkCyclesReachTheirEnd(SingleChronicleQueue q) {
    for (int cycle = q.firstCycle();
        cycle <= q.lastCycle() && cycle != Integer.MAX_VALUE;
        cycle++) {
      SingleChronicleQueueStore store = q.storeForCycle(cycle, q.epoch(), false, null);
      if (store == null) {
        continue;
      }
      try {
        Path file = store.file().toPath();
        long end = eventsEnd(file, store.writePosition());
        long size = Files.size(file);
        if (end + Integer.BYTES > size) {
          throw new IllegalArgumentException(
              "queue file "
                  + file
                  + " is cut short ("
                  + size
                  + " bytes; its events reach byte "
                  + end
                  + "): restore it from a copy, or move it out of the queue directory to read the"
                  + " rest");
        }
      } catch (java.nio.channels.ClosedByInterruptException e) {
        // the reader was interrupted (watch stopping), not the file damaged
        java.util.concurrent.CancellationException c =
            new java.util.concurrent.CancellationException(
                "checking queue file " + store.file() + " was interrupted");
        c.initCause(e);
        throw c;
      } catch (IOException e) {
        throw new IllegalArgumentException(
            "queue file " + store.file() + " cannot be read: " + e.getMessage(), e);
      } finally {
        q.closeStore(store);
      }
    }
  }

  /**
   * Where the excerpt at {@code lastPosition} (the store's write position) ends, read through the
   * file rather than its mapping, so that a file shorter than that cannot fault; past the end of
   * the file when it is cut before that excerpt's header.
   */
  private static long eventsEnd(Path file, long lastPosition) throws IOException {
    try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer header = ByteBuffer.allocate(Integer.BYTES).order(ByteOrder.LITTLE_ENDIAN);
      if (channel.read(header, lastPosition) < Integer.BYTES) {
        return lastPosition + Integer.BYTES; // the header itself is missing
      }
      int length = header.getInt(0) & Wires.LENGTH_MASK;
      return lastPosition + Integer.BYTES + length;
    }
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
    if (!Files.exists(dir.resolve(METADATA_FILE))
        && !hasCycleFiles(dir)
        && !SpillFiles.pending(dir)) {
      throw new IllegalArgumentException(
          "directory "
              + dir
              + " is not a Chronicle queue (it has no "
              + METADATA_FILE
              + ", no .cq4 files and no spill files)");
    }
    checkCycleFilesWhole(dir);
  }

  /**
   * Chronicle sizes a cycle file in whole chunks of pages, written or not, so a file of another
   * length was cut short (a copy or a restore that stopped half-way); mapping past its end would
   * fault in the middle of reading (docs/DESIGN.md, "Bad input").
   */
  private static void checkCycleFilesWhole(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.filter(p -> p.getFileName().toString().endsWith(".cq4")).toList()) {
        long size = Files.size(f);
        if (size > 0 && !hasHeader(f)) {
          throw new IllegalArgumentException(
              "queue file "
                  + f
                  + " has no header (its first bytes are zeros): it is not a queue file, or one"
                  + " whose writing never began; move it out of the queue directory to read the"
                  + " rest");
        }
        if (size % PAGE_BYTES != 0) {
          throw new IllegalArgumentException(
              "queue file "
                  + f
                  + " is cut short ("
                  + size
                  + " bytes, not whole pages of "
                  + PAGE_BYTES
                  + "): restore it from a copy, or move it out of the queue directory to read the"
                  + " rest");
        }
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "queue directory " + dir + " cannot be listed: " + e.getMessage(), e);
    }
  }

  /** Tries before a file without a header is refused: a writer creating it writes one at once. */
  private static final int HEADER_TRIES = 5;

  private static final long HEADER_WAIT_MS = 50;

  /**
   * Whether the cycle file {@code f} begins with a header: Chronicle would wait for one (about 10
   * seconds at each opening) and then read nothing, without a word. A file just created by a writer
   * is looked at again for a short while.
   */
  private static boolean hasHeader(Path f) throws IOException {
    ByteBuffer first = ByteBuffer.allocate(Integer.BYTES);
    for (int attempt = 1; ; attempt++) {
      first.clear();
      try (FileChannel ch = FileChannel.open(f, StandardOpenOption.READ)) {
        while (first.hasRemaining() && ch.read(first, first.position()) > 0) {
          // read the first four bytes
        }
      } catch (java.nio.channels.ClosedByInterruptException e) {
        return true; // left for Chronicle to judge: the reader is stopping (its interrupt is kept)
      }
      if (first.position() == Integer.BYTES && first.getInt(0) != 0) {
        return true;
      }
      if (attempt == HEADER_TRIES) {
        return false;
      }
      try {
        Thread.sleep(HEADER_WAIT_MS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return true; // left for Chronicle to judge: the reader is stopping
      }
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
