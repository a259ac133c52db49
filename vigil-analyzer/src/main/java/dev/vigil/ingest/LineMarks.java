package dev.vigil.ingest;

import java.util.Arrays;

/**
 * Where some lines of a JSONL file begin: the number and byte offset of every {@value #EVERY}th
 * line, noted by the first reading of a pass (docs/COMMANDS.md#memory). The second reading starts
 * at the mark at or before the first line it needs instead of splitting every line before it: a
 * pass over the newest events of a large file reads the file's end again, not the whole file. A few
 * bytes for every {@value #EVERY} lines.
 */
public final class LineMarks {
  /** Lines between two marks. */
  static final int EVERY = 4096;

  /** Where a reading may start: the line that begins at {@code offset}, numbered from 1. */
  public record Mark(long line, long offset) {
    /** The file's start. */
    public static final Mark START = new Mark(1, 0);
  }

  private long[] lines = new long[16];
  private long[] offsets = new long[16];
  private int size;

  /** Notes that line {@code line} begins at byte {@code offset}; marks come in file order. */
  void add(long line, long offset) {
    if (size == lines.length) {
      lines = Arrays.copyOf(lines, size * 2);
      offsets = Arrays.copyOf(offsets, size * 2);
    }
    lines[size] = line;
    offsets[size++] = offset;
  }

  /**
   * Adds the marks of a part of the file that follows those already here, its lines numbered from
   * the part's start: {@code shift} is the number of lines before the part.
   */
  public void addAll(LineMarks part, long shift) {
    for (int i = 0; i < part.size; i++) {
      add(part.lines[i] + shift, part.offsets[i]);
    }
  }

  /** The last mark at or before line {@code line}; the file's start when there is none. */
  public Mark atOrBefore(long line) {
    int i = Arrays.binarySearch(lines, 0, size, line);
    if (i < 0) {
      i = -i - 2; // the insertion point's predecessor
    }
    return i < 0 ? Mark.START : new Mark(lines[i], offsets[i]);
  }
}
