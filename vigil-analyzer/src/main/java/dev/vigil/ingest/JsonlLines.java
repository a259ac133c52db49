package dev.vigil.ingest;

import dev.vigil.ingest.LineMarks.Mark;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Splits a stream into lines as bytes, without decoding them: a line ends at {@code \n}, a {@code
 * \r} before it is dropped, the last line needs no terminator, and blank lines are passed over. A
 * line longer than the buffer grows it. Every reader of JSONL input (the pass, the fleet scan,
 * eval's split by session) goes through here.
 */
public final class JsonlLines {
  private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;
  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;

  /** Receives one non-blank line: {@code buf[from, to)}, valid until the call returns. */
  @FunctionalInterface
  public interface LineSink {
    void line(byte[] buf, int from, int to, long lineNo) throws IOException;
  }

  private JsonlLines() {}

  /**
   * Reads {@code in} to its end, passing each non-blank line with its 1-based number.
   *
   * @return how many lines it held, blank ones included
   */
  public static long read(InputStream in, LineSink sink) throws IOException {
    return read(in, Mark.START, null, sink);
  }

  /**
   * Reads like {@link #read(InputStream, LineSink)} a stream that begins with the line {@code
   * from}: lines are numbered from {@code from.line()}, and every {@value LineMarks#EVERY}th line
   * of the stream (by its number) is noted in {@code marks}, when given, with its offset counted
   * from {@code from.offset()}.
   *
   * @return how many lines it held, blank ones included
   */
  public static long read(InputStream in, Mark from, LineMarks marks, LineSink sink)
      throws IOException {
    byte[] buf = new byte[1 << 16];
    ByteBuffer words = wordsOf(buf);
    long base = from.offset(); // the offset of buf[0]
    int start = 0;
    int end = 0;
    long lineNo = from.line() - 1;
    boolean eof = false;
    while (!eof || start < end) {
      int nl = newline(words, start, end);
      if (nl < 0 && !eof) {
        if (start > 0) {
          System.arraycopy(buf, start, buf, 0, end - start);
          base += start;
          end -= start;
          start = 0;
        } else if (end == buf.length) {
          buf = Arrays.copyOf(buf, buf.length * 2);
          words = wordsOf(buf);
        }
        int n = in.read(buf, end, buf.length - end);
        if (n < 0) {
          eof = true;
        } else {
          end += n;
        }
        continue;
      }
      int lineEnd = nl < 0 ? end : nl;
      lineNo++;
      if (marks != null && lineNo % LineMarks.EVERY == 0) {
        marks.add(lineNo, base + start);
      }
      int to = lineEnd > start && buf[lineEnd - 1] == '\r' ? lineEnd - 1 : lineEnd;
      if (!blank(buf, start, to)) {
        sink.line(buf, start, to, lineNo);
      }
      start = nl < 0 ? end : nl + 1;
    }
    return lineNo - (from.line() - 1);
  }

  /**
   * A view of {@code buf} that reads eight bytes as one long, the first byte the lowest (a byte
   * buffer rather than a var handle, whose first use costs a cold JVM milliseconds of linking).
   */
  static ByteBuffer wordsOf(byte[] buf) {
    return ByteBuffer.wrap(buf).order(ByteOrder.LITTLE_ENDIAN);
  }

  /**
   * The index of the first {@code \n} in {@code [from, to)} of the array that {@code words} views
   * ({@link #wordsOf}), or -1. Eight bytes are tested at a time: a byte of {@code x = word ^
   * NEWLINES} is zero where the word has a newline, and {@code (x - ONES) & ~x & HIGHS} sets the
   * high bit of the lowest such byte (bytes above it may be set by the borrow, which the lowest one
   * never is).
   */
  static int newline(ByteBuffer words, int from, int to) {
    int i = from;
    for (int last = to - Long.BYTES; i <= last; i += Long.BYTES) {
      long x = words.getLong(i) ^ NEWLINES;
      long found = (x - ONES) & ~x & HIGHS;
      if (found != 0) {
        return i + (Long.numberOfTrailingZeros(found) >>> 3);
      }
    }
    for (; i < to; i++) {
      if (words.get(i) == '\n') {
        return i;
      }
    }
    return -1;
  }

  private static boolean blank(byte[] buf, int from, int to) {
    for (int i = from; i < to; i++) {
      byte b = buf[i];
      if (b != ' ' && b != '\t' && b != '\r' && b != 0x0B && b != '\f') {
        return false;
      }
    }
    return true;
  }
}
