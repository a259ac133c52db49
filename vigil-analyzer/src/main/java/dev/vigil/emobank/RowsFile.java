package dev.vigil.emobank;

import dev.vigil.io.OwnerOnly;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.function.Consumer;

/**
 * The bank's {@code emotions.jsonl}: one {@link RowCodec} line per row, appended and never
 * rewritten, except by a compaction, which writes the rows it keeps to a new file ({@link
 * #writeWhole}).
 */
final class RowsFile implements AutoCloseable {
  private final Path path;
  private OutputStream writer;
  private FileOutputStream stream;
  private final RowCodec.Line line = new RowCodec.Line();

  RowsFile(Path path) {
    this.path = path;
  }

  /** The file's length now (0 when it does not exist). */
  long size() throws IOException {
    return Files.exists(path) ? Files.size(path) : 0;
  }

  /**
   * Reads the rows in the first {@code committed} bytes, in order.
   *
   * @throws BankCorruptException naming the line of a row that cannot be read
   */
  void read(long committed, Consumer<EmotionRow> rows) throws IOException {
    if (committed == 0) {
      return;
    }
    try (BufferedReader reader =
        new BufferedReader(
            new InputStreamReader(
                new Bounded(Files.newInputStream(path), committed), StandardCharsets.UTF_8),
            1 << 16)) {
      long lineNo = 0;
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        lineNo++;
        if (line.isBlank()) {
          continue;
        }
        EmotionRow row;
        try {
          row = RowCodec.read(line);
        } catch (IllegalArgumentException e) {
          throw new BankCorruptException(path, lineNo, e.getMessage() + "; remove or fix the row");
        }
        rows.accept(row);
      }
    }
  }

  /**
   * Copies the bytes past {@code committed} to the end of {@code recovered}, then cuts them off
   * this file.
   */
  void moveTail(long committed, Path recovered) throws IOException {
    OwnerOnly.createFileIfMissing(recovered); // holds rows: as private as the bank's own files
    try (InputStream in = Files.newInputStream(path)) {
      in.skipNBytes(committed);
      try (OutputStream out =
          Files.newOutputStream(recovered, StandardOpenOption.CREATE, StandardOpenOption.APPEND)) {
        in.transferTo(out);
      }
    }
    try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
      channel.truncate(committed);
      channel.force(true);
    }
  }

  /** Appends a row (buffered: {@link #sync} makes it durable). */
  void append(EmotionRow row) throws IOException {
    if (writer == null) {
      OwnerOnly.createFileIfMissing(path);
      stream = new FileOutputStream(path.toFile(), true);
      writer = new BufferedOutputStream(stream, 1 << 16);
    }
    RowCodec.write(row, writer, line);
  }

  /**
   * Writes the appended rows through to the disk: their bytes and the file's length (fdatasync; the
   * file's times are not what a commit needs).
   */
  void sync() throws IOException {
    if (writer != null) {
      writer.flush();
      stream.getChannel().force(false);
    }
  }

  /** Writes {@code rows} as the whole of the file {@code target}, synced; returns its length. */
  static long writeWhole(Path target, List<EmotionRow> rows) throws IOException {
    OwnerOnly.createFileIfMissing(target);
    try (FileOutputStream fos = new FileOutputStream(target.toFile());
        OutputStream w = new BufferedOutputStream(fos, 1 << 16)) {
      RowCodec.Line line = new RowCodec.Line();
      for (EmotionRow r : rows) {
        RowCodec.write(r, w, line);
      }
      w.flush();
      fos.getChannel().force(true);
    }
    return Files.size(target);
  }

  /**
   * Forgets the rows appended since {@code committed} bytes were committed (a commit that failed, a
   * disk that filled): drops what is still buffered without writing it, and cuts the file back to
   * {@code committed} bytes, which needs no free space.
   */
  void rollBack(long committed) throws IOException {
    if (writer != null) {
      writer = null;
      stream.close(); // the stream beneath the buffer: what is buffered is dropped, not written
      stream = null;
    }
    if (size() > committed) {
      try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
        channel.truncate(committed);
        channel.force(true);
      }
    }
  }

  /** Closes the appending writer (flushing it); the next append opens it again. */
  @Override
  public void close() {
    if (writer != null) {
      try {
        writer.close();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      writer = null;
    }
  }

  /** An input stream that ends after {@code limit} bytes. */
  private static final class Bounded extends FilterInputStream {
    private long remaining;

    Bounded(InputStream in, long limit) {
      super(in);
      this.remaining = limit;
    }

    @Override
    public int read() throws IOException {
      if (remaining <= 0) {
        return -1;
      }
      int b = super.read();
      if (b >= 0) {
        remaining--;
      }
      return b;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
      if (remaining <= 0) {
        return -1;
      }
      int n = super.read(b, off, (int) Math.min(len, remaining));
      if (n > 0) {
        remaining -= n;
      }
      return n;
    }
  }
}
