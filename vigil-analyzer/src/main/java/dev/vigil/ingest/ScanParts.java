package dev.vigil.ingest;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * A file split at line ends into parts read side by side, each on a thread of its own (the first on
 * the caller's): the first reading of a large JSONL file uses both cores. A part's lines are
 * numbered from its own start; the caller shifts them by the lines of the parts before it ({@link
 * Part#lines()}).
 */
final class ScanParts {
  /** A file smaller than this is read whole: a thread would cost more than it saves. */
  static final long SPLIT_BYTES = 4L << 20;

  /** Reads one part: its bytes as a stream, its index, and where it begins in the file. */
  @FunctionalInterface
  interface PartReader {
    /** Returns how many lines the part held, blank ones included. */
    long read(InputStream part, int index, long from) throws IOException;
  }

  /** What reading one part came to: how many lines it held. */
  record Part(long lines) {}

  private ScanParts() {}

  /**
   * Splits {@code file} into at most {@code parts} parts that each end at a line end (the last at
   * the file's end) and reads them side by side; returns them in file order once every part is
   * read.
   *
   * @throws IOException the first part's failure, or the first failure of the others
   */
  static List<Part> read(Path file, int parts, PartReader reader) throws IOException {
    long[] starts = starts(file, parts);
    int n = starts.length - 1;
    long[] lines = new long[n];
    Throwable[] failures = new Throwable[n];
    List<Thread> threads = new ArrayList<>();
    for (int i = 1; i < n; i++) {
      int index = i;
      Thread t =
          new Thread(
              () -> {
                try {
                  lines[index] = readPart(file, starts[index], starts[index + 1], index, reader);
                } catch (Throwable e) {
                  failures[index] = e;
                }
              },
              "vigil-scan-" + i);
      t.setDaemon(true);
      t.start();
      threads.add(t);
    }
    try {
      lines[0] = readPart(file, starts[0], starts[1], 0, reader);
    } finally {
      for (Thread t : threads) {
        join(t);
      }
    }
    for (Throwable f : failures) {
      if (f instanceof IOException io) {
        throw io;
      } else if (f instanceof RuntimeException r) {
        throw r;
      } else if (f instanceof Error e) {
        throw e;
      } else if (f != null) {
        throw new UncheckedIOException(new IOException(f));
      }
    }
    List<Part> result = new ArrayList<>(n);
    for (long l : lines) {
      result.add(new Part(l));
    }
    return result;
  }

  /** Where each part begins, and the file's size last: a part begins just after a line feed. */
  private static long[] starts(Path file, int parts) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      long size = ch.size();
      List<Long> starts = new ArrayList<>();
      starts.add(0L);
      if (size >= SPLIT_BYTES) {
        ByteBuffer buf = ByteBuffer.allocate(1 << 16);
        for (int i = 1; i < parts; i++) {
          long from = Math.max(size * i / parts, starts.get(starts.size() - 1));
          long next = nextLineStart(ch, from, size, buf);
          if (next >= size) {
            break;
          }
          if (next > starts.get(starts.size() - 1)) {
            starts.add(next);
          }
        }
      }
      starts.add(size);
      return starts.stream().mapToLong(Long::longValue).toArray();
    }
  }

  /**
   * The position just after the first line feed at or after {@code from}, or {@code size} when
   * there is none.
   */
  private static long nextLineStart(FileChannel ch, long from, long size, ByteBuffer buf)
      throws IOException {
    long pos = from;
    while (pos < size) {
      buf.clear();
      int n = ch.read(buf, pos);
      if (n <= 0) {
        return size;
      }
      for (int i = 0; i < n; i++) {
        if (buf.get(i) == '\n') {
          return pos + i + 1;
        }
      }
      pos += n;
    }
    return size;
  }

  private static long readPart(Path file, long from, long to, int index, PartReader reader)
      throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      return reader.read(new RangeStream(ch, from, to), index, from);
    }
  }

  private static void join(Thread t) {
    boolean interrupted = false;
    while (true) {
      try {
        t.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** The bytes {@code [from, to)} of a file channel, read at their positions. */
  private static final class RangeStream extends InputStream {
    private final FileChannel ch;
    private long pos;
    private final long to;

    RangeStream(FileChannel ch, long from, long to) {
      this.ch = ch;
      this.pos = from;
      this.to = to;
    }

    @Override
    public int read() throws IOException {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (pos >= to) {
        return -1;
      }
      int want = (int) Math.min(len, to - pos);
      int n = ch.read(ByteBuffer.wrap(b, off, want), pos);
      if (n < 0) {
        return -1; // the file shrank: its end is here
      }
      pos += n;
      return n;
    }
  }
}
