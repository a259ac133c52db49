package dev.vigil.ingest;

import dev.vigil.ingest.LineMarks.Mark;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventJson;
import dev.vigil.observe.PendingEvent;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * Reads events from a JSONL file, or from stdin when the path is {@code -}
 * (docs/DESIGN.md#the-event, docs/DESIGN.md#the-window). Blank lines are passed over; lines that
 * are not JSON, lack a required field or have an unreadable {@code ts} are skipped and counted by
 * reason; naive timestamps are read in the assumed zone and counted.
 */
public final class JsonlSource {
  /** The path that means standard input. */
  public static final String STDIN = "-";

  private final String path;
  private final ZoneId assumeZone;
  private final InputStream stdin;

  /**
   * @param path a file, or {@code -}
   * @param assumeZone the zone naive timestamps are read in
   * @param stdin what {@code -} reads
   */
  public JsonlSource(String path, ZoneId assumeZone, InputStream stdin) {
    this.path = path;
    this.assumeZone = assumeZone;
    this.stdin = stdin;
  }

  /**
   * Checks that the input can be read.
   *
   * @throws IllegalArgumentException naming the path and what is wrong
   */
  public void check() {
    if (STDIN.equals(path)) {
      return;
    }
    Path p = Path.of(path);
    if (!Files.exists(p)) {
      throw new IllegalArgumentException("events file " + path + " does not exist");
    }
    if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
      throw new IllegalArgumentException("events file " + path + " is not a readable file");
    }
  }

  /**
   * Reads every line, passing events to the sink. Lines are split and parsed as bytes (a line that
   * is not valid UTF-8 is not JSON); a line may end in {@code \n} or {@code \r\n}, and blank lines
   * are passed over.
   */
  public IngestStats read(IngestSink sink) throws IOException {
    return read(sink, 1);
  }

  /**
   * Reads like {@link #read(IngestSink)}, passing over the lines before line {@code firstLine}
   * (1-based) without parsing them; the statistics count only the lines read.
   */
  public IngestStats read(IngestSink sink, long firstLine) throws IOException {
    return read(sink, firstLine, Mark.START);
  }

  /**
   * Reads like {@link #read(IngestSink, long)}, starting at {@code mark}, a line at or before line
   * {@code firstLine} that the first reading marked ({@link LineMarks}): the lines before it are
   * not even split. A file only; standard input is read from its start.
   */
  public IngestStats read(IngestSink sink, long firstLine, Mark mark) throws IOException {
    check();
    IngestStats stats = new IngestStats();
    Mark start = startAt(mark);
    try (InputStream in = open(start)) {
      JsonlLines.read(
          in,
          start,
          null,
          (buf, from, to, lineNo) -> {
            if (lineNo >= firstLine) {
              line(buf, from, to, lineNo, stats, sink);
            }
          });
    }
    return stats;
  }

  /** Receives what the first reading of a line keeps. */
  @FunctionalInterface
  public interface HeaderSink {
    /**
     * Receives one line's header.
     *
     * @param header the event's ts (UTC), agent, and whether ts was naive
     * @param lineNo its line number: what evidence cites
     */
    void accept(EventJson.Header header, long lineNo);
  }

  /**
   * Reads and checks every line like {@link #read(IngestSink)}, with the same counts, but decodes
   * only each event's {@code ts} and {@code agent} and keeps nothing of the line: for a first
   * reading that only counts the events and finds the newest.
   */
  public IngestStats scan(HeaderSink sink) throws IOException {
    check();
    IngestStats stats = new IngestStats();
    try (InputStream in = open(Mark.START)) {
      scan(in, 0, stats, new LineMarks(), sink);
    }
    return stats;
  }

  /**
   * What one part of a split scan counted, how many lines it held (blank ones included), and where
   * some of them begin: their numbers counted from the part's start, their offsets from the file's.
   */
  public record ScannedPart(IngestStats stats, long lines, LineMarks marks) {}

  /**
   * Scans like {@link #scan(HeaderSink)}, but a large file is split at line ends into at most
   * {@code parts} parts read side by side, each on a thread of its own: part {@code i}'s events go
   * to {@code sinkOfPart.apply(i)} on that part's thread, with line numbers counted from the part's
   * start (add the lines of the parts before it). Standard input, and a small file, is one part.
   *
   * @return the parts in input order
   */
  public List<ScannedPart> scan(int parts, IntFunction<HeaderSink> sinkOfPart) throws IOException {
    check();
    if (STDIN.equals(path)) {
      IngestStats stats = new IngestStats();
      LineMarks marks = new LineMarks();
      try (InputStream in = stdin) {
        return List.of(
            new ScannedPart(stats, scan(in, 0, stats, marks, sinkOfPart.apply(0)), marks));
      }
    }
    IngestStats[] stats = new IngestStats[parts];
    LineMarks[] marks = new LineMarks[parts];
    List<ScanParts.Part> read =
        ScanParts.read(
            Path.of(path),
            parts,
            (in, i, from) -> {
              stats[i] = new IngestStats();
              marks[i] = new LineMarks();
              return scan(in, from, stats[i], marks[i], sinkOfPart.apply(i));
            });
    List<ScannedPart> result = new ArrayList<>(read.size());
    for (int i = 0; i < read.size(); i++) {
      result.add(new ScannedPart(stats[i], read.get(i).lines(), marks[i]));
    }
    return result;
  }

  private long scan(
      InputStream in, long offset, IngestStats stats, LineMarks marks, HeaderSink sink)
      throws IOException {
    return JsonlLines.read(
        in,
        new Mark(1, offset),
        marks,
        (buf, from, to, lineNo) -> {
          EventJson.Header header;
          try {
            header = EventJson.readHeader(buf, from, to - from, assumeZone);
          } catch (EventFormatException e) {
            stats.skip(e.defect().code());
            return;
          }
          stats.read(header.naiveTs());
          sink.accept(header, lineNo);
        });
  }

  /**
   * Reads like {@link #read(IngestSink, long)}, with the same events, counts and failures, but
   * builds every event in full and computes its identity on a thread of its own a little ahead of
   * the sink ({@link ReadAhead}): for a reader that uses nearly every event it is given.
   */
  public IngestStats readAhead(IngestSink sink, long firstLine) throws IOException {
    return readAhead(sink, firstLine, Mark.START);
  }

  /**
   * Reads ahead like {@link #readAhead(IngestSink, long)}, starting at {@code mark} as {@link
   * #read(IngestSink, long, Mark)} does.
   */
  public IngestStats readAhead(IngestSink sink, long firstLine, Mark mark) throws IOException {
    check();
    Mark start = startAt(mark);
    try (InputStream in = open(start)) {
      return ReadAhead.read(in, start, assumeZone, firstLine, sink);
    }
  }

  /** Where a reading asked to start at {@code mark} starts: standard input from its start. */
  private Mark startAt(Mark mark) {
    return STDIN.equals(path) ? Mark.START : mark;
  }

  /**
   * The input from {@code start}: standard input as it is, a file from that offset (past its end, a
   * file that has shrunk since its first reading, it holds nothing).
   */
  private InputStream open(Mark start) throws IOException {
    if (STDIN.equals(path)) {
      return stdin;
    }
    FileChannel ch = FileChannel.open(Path.of(path), StandardOpenOption.READ);
    try {
      ch.position(start.offset());
    } catch (IOException | RuntimeException e) {
      ch.close();
      throw e;
    }
    return Channels.newInputStream(ch);
  }

  private void line(byte[] buf, int from, int to, long lineNo, IngestStats stats, IngestSink sink) {
    try {
      PendingEvent event = EventJson.readPending(buf, from, to - from, assumeZone);
      stats.read(event.naiveTs());
      sink.accept(event, () -> EventIdentity.ofContent(event.event()), lineNo);
    } catch (EventFormatException e) {
      stats.skip(e.defect().code());
    }
  }

  /** The path as given. */
  public String path() {
    return path;
  }
}
