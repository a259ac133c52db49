package dev.vigil.ingest;

import dev.vigil.ingest.LineMarks.Mark;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventJson;
import dev.vigil.observe.PendingEvent;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.time.ZoneId;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Reads a JSONL stream on a thread of its own, a few batches ahead of the reader that takes its
 * events: the thread splits the lines, builds each event in full (payload tree included) and
 * computes its content identity, so that a pass that uses nearly every event it reads does this
 * work on the second core. The events are handed on in input order, lines that are not events are
 * counted by reason as {@link JsonlSource#read} counts them, and what goes wrong reading the stream
 * is thrown to the taker. At most {@value #BATCHES} batches of {@value #BATCH} events are held,
 * whatever the input's size.
 */
final class ReadAhead {
  /** Events (or skipped lines) in one hand-over. */
  static final int BATCH = 256;

  /** Hand-overs held between the threads. */
  static final int BATCHES = 4;

  /**
   * One hand-over: events or defects with their line numbers; the last carries the end or the
   * failure.
   */
  private static final class Batch {
    final Object[] items = new Object[BATCH];
    final long[] lines = new long[BATCH];
    int size;
    boolean last;
    Throwable failure;
  }

  /** An event built ahead, its identity computed. */
  private record Built(Event event, boolean naiveTs, long identity) {}

  private final BlockingQueue<Batch> handed = new ArrayBlockingQueue<>(BATCHES);
  private final InputStream in;
  private final Mark start;
  private final ZoneId assumeZone;
  private final long firstLine;

  private ReadAhead(InputStream in, Mark start, ZoneId assumeZone, long firstLine) {
    this.in = in;
    this.start = start;
    this.assumeZone = assumeZone;
    this.firstLine = firstLine;
  }

  /**
   * Reads {@code in}, which begins with the line {@code start}, to its end, handing each event of
   * line {@code firstLine} on to {@code sink} on the calling thread; the statistics count only the
   * lines from {@code firstLine} on.
   */
  static IngestStats read(
      InputStream in, Mark start, ZoneId assumeZone, long firstLine, IngestSink sink)
      throws IOException {
    ReadAhead ahead = new ReadAhead(in, start, assumeZone, firstLine);
    Thread reader = new Thread(ahead::produce, "vigil-read-ahead");
    reader.setDaemon(true);
    reader.start();
    boolean done = false;
    try {
      IngestStats stats = ahead.consume(sink);
      done = true;
      return stats;
    } finally {
      if (!done) {
        reader.interrupt(); // the taker failed: the reader stops at its next hand-over
      }
      joinQuietly(reader);
    }
  }

  private IngestStats consume(IngestSink sink) throws IOException {
    IngestStats stats = new IngestStats();
    while (true) {
      Batch b;
      try {
        b = handed.take();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while reading ahead");
      }
      for (int i = 0; i < b.size; i++) {
        Object item = b.items[i];
        if (item instanceof Built built) {
          stats.read(built.naiveTs());
          sink.accept(PendingEvent.of(built.event(), built.naiveTs()), built::identity, b.lines[i]);
        } else {
          stats.skip((String) item);
        }
      }
      if (b.last) {
        rethrow(b.failure);
        return stats;
      }
    }
  }

  private static void rethrow(Throwable failure) throws IOException {
    if (failure == null) {
      return;
    }
    if (failure instanceof IOException io) {
      throw io;
    }
    if (failure instanceof RuntimeException r) {
      throw r;
    }
    if (failure instanceof Error e) {
      throw e;
    }
    throw new UncheckedIOException(new IOException(failure));
  }

  private void produce() {
    Batch[] current = {new Batch()};
    Throwable failure = null;
    try {
      JsonlLines.read(
          in,
          start,
          null,
          (buf, from, to, lineNo) -> {
            if (lineNo < firstLine) {
              return;
            }
            Batch b = current[0];
            b.items[b.size] = build(buf, from, to);
            b.lines[b.size++] = lineNo;
            if (b.size == BATCH) {
              hand(b);
              current[0] = new Batch();
            }
          });
    } catch (InterruptedIOException e) {
      return; // the taker has gone
    } catch (Throwable t) {
      failure = t;
    }
    Batch end = current[0];
    end.last = true;
    end.failure = failure;
    try {
      hand(end);
    } catch (InterruptedIOException e) {
      // the taker has gone
    }
  }

  /** The line's event with its identity, or the code of its defect. */
  private Object build(byte[] buf, int from, int to) {
    try {
      EventJson.Parsed parsed = EventJson.read(buf, from, to - from, assumeZone);
      return new Built(parsed.event(), parsed.naiveTs(), EventIdentity.ofContent(parsed.event()));
    } catch (EventFormatException e) {
      return e.defect().code();
    }
  }

  private void hand(Batch b) throws InterruptedIOException {
    try {
      handed.put(b);
    } catch (InterruptedException e) {
      throw new InterruptedIOException("the reader of the events has stopped");
    }
  }

  private static void joinQuietly(Thread t) {
    boolean interrupted = false;
    while (true) {
      try {
        t.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
        t.interrupt();
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
