package dev.vigil.observe;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Moves the {@link SpillFiles} of a queue into the queue, exactly once: the next agent that opens
 * the queue does it, and so does every reader of the analyzer before it reads
 * (docs/DESIGN.md#spill-files). Once imported, a spilled event is an event of the queue like any
 * other, with the identity of its place there.
 *
 * <p>Importers take a file lock, so one imports at a time. An importer first writes a claim naming
 * where the queue ended, appends the spill file's excerpts, then deletes the file and the claim. An
 * importer that finds a claim left behind (one before it stopped half-way) appends only the
 * excerpts it does not find, byte for byte, after that place. So a spilled event is in the queue
 * once, whatever stops when.
 */
public final class SpillImport {
  /** One importer at a time in this JVM: a second lock of the same file here would throw. */
  private static final Object IMPORTING = new Object();

  private SpillImport() {}

  /** What an import did: files and events imported, and the files it could not import, why. */
  public record Imported(int files, int events, List<String> problems) {
    /** Nothing to import. */
    public static final Imported NONE = new Imported(0, 0, List.of());
  }

  /**
   * Imports the spill files waiting in {@code queueDir}, if any, opening the queue for writing only
   * then; waits while another process imports. Never throws for a damaged file: it is renamed
   * {@code .damaged} and named among the problems.
   *
   * @throws IllegalStateException when the queue cannot be opened or written, naming it
   */
  public static Imported importPending(Path queueDir) {
    if (!SpillFiles.pending(queueDir)) {
      return Imported.NONE;
    }
    try (ChronicleQueue queue = EventQueues.openForWriting(queueDir, System::currentTimeMillis)) {
      OwnerOnly.restrict(queueDir.resolve(EventQueues.METADATA_FILE));
      ExcerptAppender appender = queue.createAppender();
      return importInto(queueDir, queue, appender, true);
    } catch (IOException e) {
      throw new IllegalStateException(
          "spill files of the queue " + queueDir + " could not be imported: " + e.getMessage(), e);
    }
  }

  /**
   * Imports the spill files waiting in {@code queueDir} through {@code appender} (the caller keeps
   * other appends of its process off it meanwhile).
   *
   * @param wait wait while another process imports; else return {@link Imported#NONE} at once
   */
  public static Imported importInto(
      Path queueDir, ChronicleQueue queue, ExcerptAppender appender, boolean wait)
      throws IOException {
    Path dir = queueDir.resolve(SpillFiles.DIR);
    if (!Files.isDirectory(dir)) {
      return Imported.NONE;
    }
    synchronized (IMPORTING) {
      Path lockPath = dir.resolve(SpillFiles.LOCK_FILE);
      OwnerOnly.createFile(lockPath); // never replaced: every importer locks the same file
      try (FileChannel lockFile = FileChannel.open(lockPath, StandardOpenOption.WRITE)) {
        FileLock lock = wait ? lockFile.lock() : lockFile.tryLock();
        if (lock == null) {
          return Imported.NONE;
        }
        try {
          return importAll(dir, queue, appender);
        } finally {
          lock.release();
        }
      }
    }
  }

  private static Imported importAll(Path dir, ChronicleQueue queue, ExcerptAppender appender)
      throws IOException {
    int files = 0;
    int events = 0;
    List<String> problems = new ArrayList<>();
    for (Path spill : SpillFiles.spills(dir)) {
      byte[][] excerpts;
      try {
        excerpts = SpillFiles.read(spill);
        for (byte[] excerpt : excerpts) {
          eventsIn(excerpt); // throws when it is not events
        }
      } catch (NoSuchFileException goneMeanwhile) {
        continue;
      } catch (IOException | IllegalArgumentException damaged) {
        Path aside = spill.resolveSibling(spill.getFileName() + SpillFiles.DAMAGED);
        Files.move(spill, aside, StandardCopyOption.REPLACE_EXISTING);
        problems.add(
            "spill file "
                + spill
                + " is damaged ("
                + damaged.getMessage()
                + "): moved to "
                + aside.getFileName()
                + ", its events are not imported");
        continue;
      }
      Path claim = spill.resolveSibling(spill.getFileName() + SpillFiles.CLAIM);
      boolean[] present = new boolean[excerpts.length];
      if (Files.exists(claim)) {
        findPresent(queue, readClaim(claim), excerpts, present);
      } else {
        OwnerOnly.write(
            claim, Long.toString(queue.lastIndex()).getBytes(StandardCharsets.US_ASCII));
      }
      for (int j = 0; j < excerpts.length; j++) {
        if (!present[j]) {
          appender.writeBytes(Bytes.wrapForRead(excerpts[j]));
        }
        events += eventsIn(excerpts[j]);
      }
      Files.delete(spill);
      Files.delete(claim);
      files++;
    }
    for (Path stale : claimsWithoutSpill(dir)) {
      Files.deleteIfExists(stale);
    }
    return new Imported(files, events, List.copyOf(problems));
  }

  /**
   * Marks the excerpts of a spill file that an earlier import appended before it stopped: those
   * found byte for byte at or after {@code from}, the queue's last index when it began.
   */
  private static void findPresent(
      ChronicleQueue queue, long from, byte[][] excerpts, boolean[] present) {
    ExcerptTailer tailer = queue.createTailer();
    if (from < 0 || !tailer.moveToIndex(from)) {
      tailer.toStart();
    }
    while (true) {
      try (DocumentContext dc = tailer.readingDocument()) {
        if (!dc.isPresent()) {
          return;
        }
        Bytes<?> bytes = dc.wire().bytes();
        for (int j = 0; j < excerpts.length; j++) {
          if (!present[j] && sameBytes(bytes, excerpts[j])) {
            present[j] = true;
            break;
          }
        }
      }
    }
  }

  private static boolean sameBytes(Bytes<?> bytes, byte[] expected) {
    long start = bytes.readPosition();
    if (bytes.readRemaining() != expected.length) {
      return false;
    }
    for (int i = 0; i < expected.length; i++) {
      if (bytes.readByte(start + i) != expected[i]) {
        return false;
      }
    }
    return true;
  }

  /**
   * How many events an excerpt holds.
   *
   * @throws IllegalArgumentException when it is not an excerpt of events
   */
  private static int eventsIn(byte[] excerpt) {
    Bytes<byte[]> bytes = Bytes.wrapForRead(excerpt);
    ExcerptEvents events = new ExcerptEvents().start(bytes);
    int n = 0;
    try {
      while (events.next()) {
        EventWire.read(events.event());
        n++;
      }
    } catch (EventFormatException e) {
      throw new IllegalArgumentException("an event cannot be read: " + e.getMessage(), e);
    }
    return n;
  }

  private static long readClaim(Path claim) throws IOException {
    String text = Files.readString(claim, StandardCharsets.US_ASCII).trim();
    try {
      return Long.parseLong(text);
    } catch (NumberFormatException e) {
      return -1; // unreadable: the whole queue is searched
    }
  }

  private static List<Path> claimsWithoutSpill(Path dir) {
    List<Path> stale = new ArrayList<>();
    for (Path claim : SpillFiles.list(dir, SpillFiles.SUFFIX + SpillFiles.CLAIM)) {
      String name = claim.getFileName().toString();
      Path spill =
          claim.resolveSibling(name.substring(0, name.length() - SpillFiles.CLAIM.length()));
      if (!Files.exists(spill)) {
        stale.add(claim);
      }
    }
    return stale;
  }
}
