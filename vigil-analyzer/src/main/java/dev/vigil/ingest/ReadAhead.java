package dev.vigil.ingest;

import dev.vigil.ingest.LineMarks.Mark;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventJson;
import dev.vigil.observe.PendingEvent;
import java.io.IOException;
import java.io.InputStream;
import java.time.ZoneId;

/**
 * Reads a JSONL stream a few batches ahead of the reader that takes its events ({@link
 * Prefetcher}): the prefetching thread splits the lines, builds each event in full (payload tree
 * included) and computes its content identity, so that a pass that uses nearly every event it reads
 * does this work on the second core. The events are handed on in input order, lines that are not
 * events are counted by reason as {@link JsonlSource#read} counts them, and what goes wrong reading
 * the stream is thrown to the taker.
 */
final class ReadAhead {
  /** Events (or skipped lines) in one hand-over. */
  static final int BATCH = Prefetcher.BATCH;

  /** An event built ahead, its identity computed. */
  private record Built(Event event, boolean naiveTs, long identity) {}

  private ReadAhead() {}

  /**
   * Reads {@code in}, which begins with the line {@code start}, to its end, handing each event of
   * line {@code firstLine} on to {@code sink} on the calling thread; the statistics count only the
   * lines from {@code firstLine} on.
   */
  static IngestStats read(
      InputStream in, Mark start, ZoneId assumeZone, long firstLine, IngestSink sink)
      throws IOException {
    IngestStats stats = new IngestStats();
    Prefetcher.<Object>run(
        "vigil-read-ahead",
        out ->
            JsonlLines.read(
                in,
                start,
                null,
                (buf, from, to, lineNo) -> {
                  if (lineNo >= firstLine) {
                    out.put(build(buf, from, to, assumeZone), lineNo);
                  }
                }),
        (item, lineNo) -> {
          if (item instanceof Built built) {
            stats.read(built.naiveTs());
            sink.accept(PendingEvent.of(built.event(), built.naiveTs()), built::identity, lineNo);
          } else {
            stats.skip((String) item);
          }
        });
    return stats;
  }

  /** The line's event with its identity, or the code of its defect. */
  private static Object build(byte[] buf, int from, int to, ZoneId assumeZone) {
    try {
      EventJson.Parsed parsed = EventJson.read(buf, from, to - from, assumeZone);
      return new Built(parsed.event(), parsed.naiveTs(), EventIdentity.ofContent(parsed.event()));
    } catch (EventFormatException e) {
      return e.defect().code();
    }
  }
}
