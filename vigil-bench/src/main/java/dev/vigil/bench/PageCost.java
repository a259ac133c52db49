package dev.vigil.bench;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a new page of a file costs the kernel on the file system of the benchmark's queues, the two
 * ways the agent's queue file gets its pages: a hole first touched through a memory mapping (how
 * Chronicle grows a day file), and a page written with zeros through {@code write(2)} ahead of the
 * mapping's first touch (tried in the agent and left out: docs/BENCHMARKS.md). CPU time of this
 * thread, in microseconds a 4 KiB page, over a file of {@link #BYTES}; almost all of it is the
 * kernel's.
 */
final class PageCost {
  static final long BYTES = 256L << 20;
  private static final int PAGE = 4096;

  /**
   * Microseconds a page.
   *
   * @param hole a hole touched through the mapping
   * @param write written with zeros through {@code write(2)}
   * @param touchWritten the mapping's first touch of a page written so
   */
  record Figure(double hole, double write, double touchWritten) {}

  private PageCost() {}

  /** Measures both ways in {@code dir}, with a file of its own each, deleted after. */
  static Figure measure(Path dir) throws IOException {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    double pages = BYTES / PAGE;
    Path holes = dir.resolve("page-cost-holes.bin");
    Path written = dir.resolve("page-cost-written.bin");
    try {
      double hole;
      try (RandomAccessFile raf = sparse(holes)) {
        MappedByteBuffer map = raf.getChannel().map(FileChannel.MapMode.READ_WRITE, 0, BYTES);
        long before = threads.getCurrentThreadCpuTime();
        touch(map);
        hole = (threads.getCurrentThreadCpuTime() - before) / 1e3 / pages;
      }
      double write;
      double touch;
      try (RandomAccessFile raf = sparse(written)) {
        FileChannel channel = raf.getChannel();
        MappedByteBuffer map = channel.map(FileChannel.MapMode.READ_WRITE, 0, BYTES);
        ByteBuffer zeros = ByteBuffer.allocateDirect(1 << 20);
        long before = threads.getCurrentThreadCpuTime();
        for (long p = 0; p < BYTES; ) {
          zeros.clear();
          p += channel.write(zeros, p);
        }
        long between = threads.getCurrentThreadCpuTime();
        touch(map);
        write = (between - before) / 1e3 / pages;
        touch = (threads.getCurrentThreadCpuTime() - between) / 1e3 / pages;
      }
      return new Figure(hole, write, touch);
    } finally {
      Files.deleteIfExists(holes);
      Files.deleteIfExists(written);
    }
  }

  /** A new file of {@link #BYTES}, all of it a hole (as Chronicle grows a day file). */
  private static RandomAccessFile sparse(Path file) throws IOException {
    RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw");
    try {
      raf.setLength(BYTES);
      return raf;
    } catch (IOException e) {
      raf.close();
      throw e;
    }
  }

  /** Writes one long into each page of {@code map}: the first touch of every page. */
  private static void touch(MappedByteBuffer map) {
    for (int p = 0; p < BYTES; p += PAGE) {
      map.putLong(p, p);
    }
  }

  static void print(Figure f) {
    System.out.printf(
        "  the kernel's cost of a new page of the queues' file system (CPU, µs a 4 KiB page, %d MiB"
            + " each way): a hole touched through a mapping %.2f; written with zeros first %.2f,"
            + " then touched %.2f%n",
        BYTES >> 20, f.hole(), f.write(), f.touchWritten());
  }
}
