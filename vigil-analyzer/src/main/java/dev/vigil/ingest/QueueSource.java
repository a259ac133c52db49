package dev.vigil.ingest;

import dev.vigil.observe.Event;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import dev.vigil.observe.ExcerptEvents;
import dev.vigil.observe.PendingEvent;
import dev.vigil.observe.SpillFiles;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.CancellationException;
import java.util.stream.Stream;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Reads the events of a Chronicle queue that were appended since the last committed pass
 * (docs/DESIGN.md#the-window).
 *
 * <p>The position (the index of the last excerpt read) is kept in the EmoBank's checkpoint rather
 * than in a Chronicle named tailer: a named tailer stores its position inside the queue directory,
 * where it cannot be committed atomically with the bank's rows, and it would make the analyzer
 * write into the agent's queue. The effect is the same: every excerpt is read once across runs and
 * restarts. The position never moves past an event later than the pass's {@code now}, so a
 * reproducible pass in the past leaves later events for later passes; excerpts read twice because
 * of that are recognized by their identity.
 */
public final class QueueSource {
  private final Path dir;
  private final String key;
  private final EventIdentity.OfQueue identities;
  private long lastIndex;
  private long lastRead = -1;

  /** The command that reads the queue. */
  private final String command;

  /** The place ({@link ExcerptEvents#place}) of the event being handed to the sink. */
  private long current = -1;

  /**
   * A source for a pass ({@code run}).
   *
   * @param dir the queue directory
   * @throws IllegalArgumentException naming the path when it is missing or not a queue
   */
  public QueueSource(Path dir) {
    this(dir, "run");
  }

  /**
   * @param dir the queue directory
   * @param command the command that reads it, for its lines on stderr
   * @throws IllegalArgumentException naming the path when it is missing or not a queue
   */
  public QueueSource(Path dir, String command) {
    EventQueues.checkIsQueue(dir);
    this.command = command;
    this.dir = dir;
    this.key = dir.toAbsolutePath().normalize().toString();
    this.identities = new EventIdentity.OfQueue(key);
  }

  /**
   * Whether the agent has created its queue in {@code dir} yet: false while {@code dir} does not
   * exist or is a directory without queue files (the agent creates the queue on its first tool
   * call).
   *
   * @throws IllegalArgumentException naming the path when it can never become a queue (a file, an
   *     unreadable directory)
   */
  public static boolean isCreated(Path dir) {
    if (!Files.exists(dir)) {
      return false;
    }
    if (!Files.isDirectory(dir) || !Files.isReadable(dir)) {
      EventQueues.checkIsQueue(dir); // throws, naming what is wrong
    }
    return Files.exists(dir.resolve(EventQueues.METADATA_FILE))
        || hasCycleFile(dir)
        || SpillFiles.pending(dir);
  }

  private static boolean hasCycleFile(Path dir) {
    try (Stream<Path> files = Files.list(dir)) {
      return files.anyMatch(f -> f.getFileName().toString().endsWith(".cq4"));
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "queue directory " + dir + " cannot be listed: " + e.getMessage(), e);
    }
  }

  /** The key under which the position is kept in the checkpoint: the queue's absolute path. */
  public String key() {
    return key;
  }

  /**
   * Reads every excerpt after {@code afterIndex} (all when -1).
   *
   * @param now the pass's now: the position stops before the first event later than it
   * @return the statistics; {@link #lastIndex()} then gives the position to commit
   */
  public IngestStats read(long afterIndex, Instant now, IngestSink sink) {
    return read(afterIndex, now, null, sink);
  }

  /**
   * Reads every excerpt after {@code afterIndex} (all when -1) whose {@code ts} is at or after
   * {@code from} (all when null); earlier events are passed over without decoding their payload.
   *
   * @param now the pass's now: the position stops before the first event later than it
   * @return the statistics; {@link #lastIndex()} then gives the position to commit
   */
  public IngestStats read(long afterIndex, Instant now, Instant from, IngestSink sink) {
    return read(afterIndex, -1, now, from, Long.MAX_VALUE, true, sink);
  }

  /**
   * Reads again, from the start, the excerpts an earlier {@link #read} saw: up to and including
   * {@code through} (its {@link #lastRead()}), so that excerpts appended since are not read.
   */
  public IngestStats readThrough(long through, Instant now, Instant from, IngestSink sink) {
    return readThrough(through, now, from, -1, sink);
  }

  /**
   * Reads again like {@link #readThrough(long, Instant, Instant, IngestSink)}, from the excerpt at
   * {@code fromIndex} on (from the start when -1, or when the queue no longer holds it): the
   * excerpts before it are not even looked at.
   */
  public IngestStats readThrough(
      long through, Instant now, Instant from, long fromIndex, IngestSink sink) {
    return readThrough(through, now, from, fromIndex, true, sink);
  }

  /**
   * Reads again like {@link #readThrough(long, Instant, Instant, long, IngestSink)}, decoding the
   * excerpts ahead of the sink on a thread of their own only when {@code ahead}: a pass of {@code
   * watch} reads on its own thread alone, so as to leave the other core to the tail's deposits.
   */
  public IngestStats readThrough(
      long through, Instant now, Instant from, long fromIndex, boolean ahead, IngestSink sink) {
    return read(-1, fromIndex, now, from, through, ahead, sink);
  }

  /** Receives what a first reading keeps of an event. */
  @FunctionalInterface
  public interface HeaderSink {
    /**
     * Receives one event's header.
     *
     * @param ts its time
     * @param agent its agent, or null
     * @param place its place in the queue ({@link ExcerptEvents#place}): its excerpt's index, where
     *     to read it again, and its place in the excerpt
     */
    void accept(Instant ts, String agent, long place);
  }

  /**
   * Reads like {@link #read(long, Instant, Instant, IngestSink)} from the queue's start, with the
   * same counts, failures and positions, but decodes only each event's {@code ts} and {@code agent}
   * ({@link EventWire#readHeader}): for a first reading that only counts the events and finds the
   * newest.
   */
  public IngestStats scan(Instant now, Instant from, HeaderSink sink) {
    try {
      return read(
          -1,
          -1,
          now,
          from,
          Long.MAX_VALUE,
          (bytes, place) -> {
            EventWire.Header h = EventWire.readHeader(bytes);
            sink.accept(h.ts(), h.agent(), place);
            return h.ts();
          });
    } catch (InterruptedIOException e) {
      throw interrupted(); // not thrown: the sink hands nothing over
    }
  }

  /** Reads one event of an excerpt, hands it on with its place, and returns its time. */
  @FunctionalInterface
  private interface Taker {
    Instant take(Bytes<?> bytes, long place) throws EventFormatException, InterruptedIOException;
  }

  /**
   * Decodes the excerpts, when {@code ahead} on a thread of their own a few batches ahead of the
   * sink ({@link Prefetcher}), so that a pass that uses nearly every event decodes on the second
   * core.
   */
  private IngestStats read(
      long afterIndex,
      long fromIndex,
      Instant now,
      Instant from,
      long through,
      boolean ahead,
      IngestSink sink) {
    try {
      if (!ahead) {
        return decode(
            afterIndex, fromIndex, now, from, through, (e, place) -> handOver(e, place, sink));
      }
      IngestStats[] stats = {null};
      Prefetcher.<Event>run(
          "vigil-read-ahead",
          out -> stats[0] = decode(afterIndex, fromIndex, now, from, through, out),
          (e, place) -> handOver(e, place, sink));
      return stats[0];
    } catch (InterruptedIOException e) {
      throw interrupted();
    } catch (IOException e) {
      throw new UncheckedIOException(e); // not thrown: the reading and the sink declare none
    }
  }

  /** Reads the excerpts, decodes each event and puts it into {@code out} with its place. */
  private IngestStats decode(
      long afterIndex,
      long fromIndex,
      Instant now,
      Instant from,
      long through,
      Prefetcher.Out<Event> out)
      throws InterruptedIOException {
    return read(
        afterIndex,
        fromIndex,
        now,
        from,
        through,
        (bytes, place) -> {
          Event e = EventWire.read(bytes);
          out.put(e, place);
          return e.ts();
        });
  }

  /** Hands the event at {@code place} to the sink. */
  private void handOver(Event e, long place, IngestSink sink) {
    current = place;
    long index = ExcerptEvents.indexOf(place);
    int k = ExcerptEvents.kOf(place);
    sink.accept(
        PendingEvent.of(e, false),
        () -> identities.ofEvent(e, index, k),
        e.seq() != null ? e.seq() : index);
  }

  /** Watch is stopping and its pass ran over the grace: the pass ends here, nothing written. */
  private CancellationException interrupted() {
    return new CancellationException("reading the queue " + dir + " was interrupted");
  }

  private IngestStats read(
      long afterIndex, long fromIndex, Instant now, Instant from, long through, Taker taker)
      throws InterruptedIOException {
    IngestStats stats = new IngestStats();
    ExcerptEvents events = new ExcerptEvents();
    lastIndex = afterIndex;
    lastRead = -1;
    boolean future = false;
    QueueSpills.importPending(dir, command);
    try (ChronicleQueue queue = EventQueues.openForReading(dir)) {
      ExcerptTailer tailer = queue.createTailer();
      if (afterIndex >= 0 && tailer.moveToIndex(afterIndex)) {
        tailer.readingDocument().close(); // the excerpt at afterIndex was read by an earlier pass
      } else if (fromIndex >= 0 && !tailer.moveToIndex(fromIndex)) {
        tailer.toStart();
      }
      for (long n = 1; ; n++) {
        if ((n & 4095) == 0 && Thread.currentThread().isInterrupted()) {
          throw interrupted();
        }
        try (DocumentContext dc = tailer.readingDocument()) {
          if (!dc.isPresent()) {
            break;
          }
          long index = dc.index();
          if (index > through) {
            break;
          }
          lastRead = index;
          Bytes<?> bytes = dc.wire().bytes();
          events.start(bytes);
          while (true) {
            try {
              if (!events.next()) {
                break;
              }
              Bytes<?> event = events.event();
              if (from == null || !EventWire.peekTs(event).isBefore(from)) {
                future |= taker.take(event, ExcerptEvents.place(index, events.k())).isAfter(now);
                stats.read(false);
              }
            } catch (EventFormatException ex) {
              stats.skip(ex.defect().code());
            }
          }
          if (!future) {
            lastIndex = index;
          }
        }
      }
    }
    return stats;
  }

  /**
   * The index of the excerpt whose event is being handed to the sink (valid during the sink's
   * call): where a second reading can start from.
   */
  public long index() {
    return ExcerptEvents.indexOf(current);
  }

  /**
   * The place of the event being handed to the sink (valid during the sink's call): its excerpt's
   * index and its place in the excerpt ({@link ExcerptEvents#place}), in the order of the queue.
   */
  public long place() {
    return current;
  }

  /** The index of the last excerpt read, or -1. */
  public long lastRead() {
    return lastRead;
  }

  /** The index of the last excerpt that no later pass needs to read again. */
  public long lastIndex() {
    return lastIndex;
  }
}
