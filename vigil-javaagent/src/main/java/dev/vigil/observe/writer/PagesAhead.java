package dev.vigil.observe.writer;

import java.io.File;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.StandardOpenOption;

/**
 * Writes zeros into the next pages of the queue's day file, ahead of the appends, so that the pages
 * the appends then fill through Chronicle's memory mapping are already in the page cache
 * (docs/BENCHMARKS.md, "Pages written ahead").
 *
 * <p>Why: Chronicle grows a day file sparsely and writes it through a mapping. The first touch of a
 * page that is still a hole is a page fault that reads it in, and the kernel's read-ahead then
 * reads whole windows of holes ahead of the writer (up to the device's {@code read_ahead_kb}),
 * filling each page with zeros. Measured on the 2-core development machine (ext4, a virtual machine
 * that hands freed memory back to its host): about 9 µs of system time a 4 KiB page that way,
 * against well under 1 µs to write the page with zeros through {@code write(2)} and then touch it
 * through the mapping.
 *
 * <p>Safe: it writes only past the queue's write position, read while Chronicle's write lock is
 * held (inside an append's {@code writingDocument()}), where no excerpt of any process is yet; an
 * excerpt or index that Chronicle writes there later overwrites the zeros. It never grows the file
 * (Chronicle does, a chunk at a time), writes nothing on a file system with less than {@link
 * #MIN_FREE} free (the zeros would take room the events may need), and on any failure (a file of
 * another user, a full file system) it stops for this file while the appends go on as without it.
 * Used under {@link EventLog}'s append lock only.
 */
final class PagesAhead {
  /**
   * How far past the write position the zeros are kept at least, once built up: more than the
   * kernel reads ahead of a page fault (8 MiB on the development machine's disk), so that the
   * read-ahead begun by the file's first page fault finds its next window already in the page cache
   * and stops there.
   */
  static final long LEAD = 20L << 20;

  /**
   * Bytes of zeros one fill writes at most: a fill holds the append lock and Chronicle's write
   * lock, so the work comes in small pieces (about a millisecond each on the development machine at
   * most), never in a burst of the whole lead.
   */
  static final long CHUNK = 1L << 20;

  /**
   * Bytes appended between two fills while the zeros reach less than {@link #LEAD} ahead: the lead
   * is built up a {@link #CHUNK} at a time, over about a MiB of events.
   */
  static final long RAMP = 64L << 10;

  /** Free space below which nothing is written ahead. */
  static final long MIN_FREE = 1L << 30;

  /** Bytes appended after a fill that wrote nothing before the file is looked at again. */
  static final long RETRY = 64L << 20;

  /**
   * Bytes appended before the first fill, and after a fill that stopped at the end of the file's
   * present length (Chronicle extends it a chunk at a time).
   */
  static final long STEP = 1L << 20;

  private static final long PAGE = 4096;

  private final ByteBuffer zeros = ByteBuffer.allocateDirect(1 << 20);

  private File file;
  private FileChannel channel;

  /** The end of the zeros written into {@link #file}. */
  private long filledTo;

  /**
   * Bytes that may be appended before the next fill is due: the first after {@link #STEP}, so that
   * a process that writes a few events (a short one, or a quiet one) writes no zeros ahead.
   */
  private long budget = STEP;

  /** A fill failed for {@link #file}: none more for it. */
  private boolean off;

  /** Counts {@code bytes} appended; whether a fill is due. */
  boolean due(long bytes) {
    budget -= bytes;
    return budget < 0;
  }

  /**
   * Writes up to a {@link #CHUNK} of zeros on from where the last fill ended, or from {@code
   * writePosition} (the end of the queue in {@code current}, read under Chronicle's write lock),
   * whichever is further, up to a {@link #CHUNK} beyond {@link #LEAD} past it and within the file's
   * present length, when the file system has {@code freeBytes} of at least {@link #MIN_FREE}. Never
   * throws.
   */
  void fill(File current, long writePosition, long freeBytes) {
    if (!current.equals(file)) {
      close();
      file = current;
      filledTo = 0;
      off = false;
    }
    if (off || freeBytes < MIN_FREE) {
      budget = RETRY;
      return;
    }
    try {
      if (channel == null) {
        channel = FileChannel.open(current.toPath(), StandardOpenOption.WRITE);
      }
      long start = Math.max(filledTo, ceilPage(writePosition));
      long fileEnd = channel.size() & -PAGE;
      long end = Math.min(Math.min(writePosition + LEAD + CHUNK, start + CHUNK), fileEnd) & -PAGE;
      while (start < end) {
        zeros.clear().limit((int) Math.min(zeros.capacity(), end - start));
        start += channel.write(zeros, start);
      }
      filledTo = Math.max(filledTo, start);
      long ahead = filledTo - writePosition;
      budget = filledTo >= fileEnd ? STEP : Math.max(ahead - LEAD, RAMP);
    } catch (IOException | RuntimeException e) {
      off = true;
      close();
      budget = RETRY;
    }
  }

  /** The end of the zeros written into the present file, 0 when none were. */
  long filledTo() {
    return filledTo;
  }

  /** Lets go of the file; the next fill opens it again. */
  void close() {
    FileChannel c = channel;
    channel = null;
    if (c != null) {
      try {
        c.close();
      } catch (IOException ignored) {
        // nothing was written through it that close could lose
      }
    }
  }

  private static long ceilPage(long position) {
    return (position + PAGE - 1) & -PAGE;
  }
}
