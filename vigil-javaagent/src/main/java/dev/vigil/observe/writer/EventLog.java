package dev.vigil.observe.writer;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventEncoder;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import dev.vigil.observe.ExcerptEvents;
import dev.vigil.observe.OwnerOnly;
import dev.vigil.observe.SpillFiles;
import dev.vigil.observe.SpillImport;
import dev.vigil.observe.agent.ProcessId;
import dev.vigil.observe.agent.Stderr;
import dev.vigil.observe.agent.TimeSource;
import dev.vigil.observe.capture.Captured;
import java.io.IOException;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.impl.RollingChronicleQueue;
import net.openhft.chronicle.wire.WriteAfterEOFException;

/**
 * The queue the events go to, shared by the writer thread and by the calling threads that find the
 * hand-off full: such a thread appends its own event rather than waiting for room (none lost). One
 * lock of this process (and Chronicle's write lock, for other processes) orders the appends, and
 * {@code seq} is taken while it is held, so {@code seq} is strictly increasing in queue order
 * whichever thread appends. The costly part of an event (its encoding, by the appending thread's
 * own {@link EventEncoder}) is done before the lock is taken; inside it, the bytes are copied into
 * the excerpt. Only the writer thread opens and closes the queue, holding the same lock.
 *
 * <p>Departure from Chronicle's usual use: one appender serves every thread, each holding the lock
 * while it uses it (its single-thread check is off). An appender of each thread, as before, had to
 * find the end of the queue again (a scan of the index) whenever another thread had appended since
 * its last excerpt, which was nearly every time once callers appended beside the writer.
 *
 * <p>An event is copied into a buffer of native memory and appended with {@link
 * ExcerptAppender#writeBytes}, not in a {@code writingDocument()}: Chronicle's {@code
 * writingDocument()} looks up the last sequence number of the day file ({@code lastSequenceNumber})
 * at every call, whoever appended last, about a third of its cost, while {@code writeBytes} looks
 * it up only when the file's write position has moved past this appender's last excerpt (another
 * process appended). The excerpt is the same: one event, its bytes as {@link EventEncoder} writes
 * them.
 *
 * <p>Measured: with Chronicle's write lock alone, 16 threads that outran the writer spun on it (it
 * is meant for other processes and spins while its holder may be descheduled), two to three times
 * slower than waiting for room as before; with this process's lock in front they park instead, and
 * are as fast as before with less CPU.
 */
final class EventLog {
  private static final long REOPEN_NANOS = TimeUnit.SECONDS.toNanos(5);

  /**
   * Space left free on the queue's file system: Vigil writes no event when less is free. Chronicle
   * writes through memory mapped over a file that grows sparsely, so on a full file system its
   * write faults (SIGBUS), which the JVM turns into an {@link InternalError} thrown later at an
   * arbitrary point of the writing thread (an application thread, when it appends its own event),
   * and the excerpt is left as a hole: events were lost silently and the queue was damaged
   * (measured on a full tmpfs). Checking the free space first keeps every write on space the file
   * system has; this margin covers what Chronicle adds around the events between two checks (an
   * index array, a new day file's header).
   */
  static final long RESERVE_BYTES = 1L << 20;

  /** Bytes of events written between two checks of the free space, at most. */
  private static final long CHECK_EVERY_BYTES = 64L << 10;

  /** While the file system is full, how often its free space is checked again. */
  private static final long FULL_RECHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

  /** Events that could not be written because the queue's file system is full: lost. */
  static final class DiskFull extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int events;

    DiskFull(String message) {
      this(message, 1);
    }

    DiskFull(String message, int events) {
      super(message, null, false, false);
      this.events = events;
    }

    /** How many events were lost. */
    int events() {
      return events;
    }
  }

  /** A batch that could not be written for another reason: its events are lost. */
  static final class BatchFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final int events;

    BatchFailed(int events, Throwable cause) {
      super(cause.toString(), cause, false, false);
      this.events = events;
    }

    /** How many events were lost. */
    int events() {
      return events;
    }
  }

  /** An event that could not be built: lost, but the queue is fine. */
  static final class Unbuildable extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Unbuildable(Throwable cause) {
      super(
          "an event could not be built (" + cause.getClass().getName() + ")", cause, false, false);
    }
  }

  /**
   * The native buffer's first size: most events are a few hundred bytes; it grows for longer ones.
   */
  private static final int EXCERPT_BYTES = 1024;

  /**
   * A batch is written once it holds this many bytes (or {@link ExcerptEvents#MAX_EVENTS} events),
   * before its run ends.
   */
  static final int BATCH_BYTES = 32 << 10;

  /**
   * How many times a thread tries the append lock before it parks: an append holds it well under a
   * microsecond.
   */
  private static final int SPINS = 64;

  private final Path dir;
  private final EventAssembler assembler;

  /** The pid written into events; 0 until {@link #pid()} looks up this process's. */
  private volatile long pid;

  /** The last {@code seq} given; read and written under {@link #appending} only. */
  private long seq;

  private final EventTime time;
  private final TimeSource clock;

  /**
   * Held around each append of this process: its threads then wait for one another parked, rather
   * than spinning on Chronicle's write lock (meant for other processes) while its holder may be
   * descheduled.
   */
  private final ReentrantLock appending = new ReentrantLock();

  /** The encoders of calling threads that append their own events. */
  private final ThreadLocal<EventEncoder> callerEncoders =
      new ThreadLocal<>() { // not withInitial: Vigil's start links no lambda (docs/DESIGN.md)
        @Override
        protected EventEncoder initialValue() {
          return new EventEncoder();
        }
      };

  private final LongAdder appendedByCallers = new LongAdder();

  /** The queue and its one appender; null while not open. Set and cleared under the lock. */
  private ChronicleQueue queue;

  private ExcerptAppender appender;

  /**
   * The excerpt being appended, in native memory (Chronicle copies it into the mapped file with one
   * copy); used under the lock only, released with the queue.
   */
  private Bytes<?> excerpt;

  /**
   * The writer thread's run's events not yet written ({@link ExcerptEvents}'s batch), in native
   * memory; under the lock, released with the queue.
   */
  private Bytes<?> batch;

  /** How many events {@link #batch} holds. */
  private int batched;

  private volatile boolean attempted;

  /** The queue is open: {@link #appender} is set. */
  private volatile boolean ready;

  private volatile String failure = "";

  /**
   * The writer thread holds the lock for a run of appends ({@link #beginRun()}); the writer thread
   * only.
   */
  private boolean inRun;

  /** The writer thread's encoder. */
  private final EventEncoder encoder = new EventEncoder();

  private long lastOpenAttempt;

  /** The queue's file system; set with the queue, under the lock. */
  private FileStore store;

  /**
   * Bytes that may be written before the free space is checked again; negative: check at the next
   * write. Under the lock.
   */
  private long roomUntilCheck = -1;

  /** When the free space was last found short ({@link #clock}'s nanoseconds); under the lock. */
  private long fullSince;

  private boolean full;

  EventLog(Path dir, EventAssembler assembler, long pid) {
    this(dir, assembler, pid, TimeSource.SYSTEM);
  }

  /**
   * A log that reads the time of its own events and of its reopening from {@code clock}; {@code
   * pid} 0 stands for this process, whose pid is looked up on first use ({@link #pid()}).
   */
  EventLog(Path dir, EventAssembler assembler, long pid, TimeSource clock) {
    this.clock = clock;
    this.time = new EventTime(clock);
    this.dir = dir;
    this.assembler = assembler;
    this.pid = pid;
  }

  /**
   * The pid written into events. This process's is looked up on first use ({@link ProcessId}),
   * which the writer thread makes as it starts.
   */
  long pid() {
    long p = pid;
    if (p == 0) {
      p = ProcessId.current();
      pid = p;
    }
    return p;
  }

  /**
   * Opens the queue unless it is open, or failed to open less than 5 s ago; the writer thread only.
   */
  boolean open() {
    if (appender != null) {
      return true;
    }
    long now = clock.nanoTime();
    if (attempted && now - lastOpenAttempt < REOPEN_NANOS) {
      return false;
    }
    lastOpenAttempt = now;
    try {
      FileStore fileStore = prepareDirectory();
      ChronicleQueue q = EventQueues.openForWriting(dir, time);
      ExcerptAppender a;
      try {
        a = q.createAppender();
        a.singleThreadedCheckDisabled(true); // any thread, under the lock
      } catch (Throwable t) {
        q.close();
        throw t;
      }
      lock();
      try {
        queue = q;
        appender = a;
        store = fileStore;
        OwnerOnly.restrict(dir.resolve(EventQueues.METADATA_FILE));
        roomUntilCheck = -1;
        full = false;
        excerpt = Bytes.allocateElasticDirect(EXCERPT_BYTES);
        excerpt.singleThreadedCheckDisabled(true); // any thread, under the lock
        batch = Bytes.allocateElasticDirect(BATCH_BYTES + EXCERPT_BYTES);
        batch.singleThreadedCheckDisabled(true);
        batched = 0;
        importSpills(q, a);
        ready = true;
      } finally {
        appending.unlock();
      }
      return true;
    } catch (DiskFull d) {
      close();
      failure = d.getMessage();
      return false;
    } catch (Throwable t) {
      close();
      String m = t.getMessage();
      failure =
          "cannot write events to the queue "
              + dir
              + " ("
              + t.getClass().getSimpleName()
              + (m == null ? "" : ": " + m)
              + ")";
      return false;
    } finally {
      attempted = true;
    }
  }

  /**
   * The queue directory, created owner-only when missing, on a file system with room for events:
   * its file store; thrown {@link DiskFull} before Chronicle maps a file it cannot fill.
   */
  private FileStore prepareDirectory() throws IOException {
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new IOException(dir + " exists and is not a directory");
    }
    if (!Files.isDirectory(dir)) {
      OwnerOnly.createDirectories(dir);
    }
    FileStore fileStore = Files.getFileStore(dir);
    long free = fileStore.getUsableSpace();
    if (free < RESERVE_BYTES) {
      throw new DiskFull(diskFull(free));
    }
    return fileStore;
  }

  /**
   * Imports the spill files other processes left in the queue directory (their events written at
   * exit before their queue was open), unless another process is importing them; never throws: a
   * failure leaves them for the next importer. The lock held, before any event of this process.
   */
  private void importSpills(ChronicleQueue q, ExcerptAppender a) {
    try {
      SpillImport.Imported done = SpillImport.importInto(dir, q, a, false);
      for (String problem : done.problems()) {
        Stderr.warn("spill", () -> problem);
      }
    } catch (Throwable t) {
      Stderr.warn(
          "spill", () -> "spill files of " + dir + " were not imported this time (" + t + ")");
    }
  }

  /**
   * Writes the events of {@code calls} to a spill file of the queue directory rather than to the
   * queue, which was never opened: the process is ending, and opening Chronicle would delay its
   * exit (docs/DESIGN.md#spill-files). They are encoded and given their {@code seq}s as if they
   * were appended, in the excerpts they would have been appended as. The writer thread only.
   *
   * @return how many of them could not be built (lost)
   * @throws IOException when the file could not be written: all of them are lost
   */
  int spill(List<Captured> calls, String agent) throws IOException {
    List<byte[]> excerpts = new ArrayList<>();
    List<byte[]> run = new ArrayList<>();
    int runBytes = 0;
    int unbuildable = 0;
    int given = 0;
    lock();
    try {
      for (Captured call : calls) {
        try {
          assembler.encode(call, encoder, agent, pid());
        } catch (Throwable t) {
          unbuildable++;
          continue;
        }
        byte[] event = encoder.toBytes(++seq);
        given++;
        run.add(event);
        runBytes += event.length;
        if (run.size() == ExcerptEvents.MAX_EVENTS || runBytes >= BATCH_BYTES) {
          excerpts.add(excerptOf(run));
          run.clear();
          runBytes = 0;
        }
      }
      if (!run.isEmpty()) {
        excerpts.add(excerptOf(run));
      }
      if (!excerpts.isEmpty()) {
        SpillFiles.write(dir, excerpts, pid());
      }
      given = 0;
    } finally {
      seq -= given; // not written: seq stays contiguous over the events kept
      appending.unlock();
    }
    return unbuildable;
  }

  /** The excerpt of a run of events: a batch, or an only event in the layout of one event. */
  private static byte[] excerptOf(List<byte[]> run) {
    return run.size() == 1 ? run.get(0) : ExcerptEvents.batchOf(run);
  }

  /** Whether the writer thread has tried to open the queue at least once. */
  boolean attempted() {
    return attempted;
  }

  /** Whether the queue has been opened and is open; any thread. */
  boolean isReady() {
    return ready;
  }

  /** Whether the queue is open for the writer thread; the writer thread only. */
  boolean isOpen() {
    return appender != null;
  }

  /** Why the queue could not be opened, or empty. */
  String failure() {
    return failure;
  }

  /** Events appended by calling threads rather than the writer. */
  long appendedByCallers() {
    return appendedByCallers.sum();
  }

  /**
   * Appends the event of {@code call} (a tool call or one side of a turn) through the writer
   * thread's appender; the writer thread only, the queue open.
   *
   * @throws Unbuildable when the event could not be built; anything else when writing failed
   */
  void append(Captured call, String agent) {
    append(appender, encoder, call, agent);
  }

  /**
   * Appends a {@code vigil.dropped} event as an excerpt of its own, after what the run has batched
   * ({@link #flushRun()} first, so that a failure here is the dropped event's alone); the writer
   * thread only, the queue open.
   */
  void appendDropped(ObjectNode payload, String agent, String thread) {
    byte[] bytes = EventWire.payloadBytes(payload);
    Instant now = clock.now();
    lock();
    try {
      time.advanceTo(now.toEpochMilli());
      flushBatch(appender); // empty after flushRun(); written before the seq it is given
      Event e =
          new Event(
              now, "vigil.dropped", "ok", payload, agent, ++seq, pid(), thread, null, null, null);
      Bytes<?> b = excerpt;
      b.clear();
      EventWire.write(b, e, bytes);
      try {
        writeExcerpt(appender, b);
      } catch (DiskFull d) {
        seq--; // not written: seq stays contiguous over the events in the queue
        throw d;
      }
    } finally {
      appending.unlock();
    }
  }

  /**
   * Appends the event of {@code call} on the calling thread (encoded by the thread's own encoder,
   * written through the one appender under the lock); any thread, never throws.
   *
   * @return null when it was written, else why not (the event is then lost)
   */
  String appendHere(Captured call, String agent) {
    EventEncoder mine = callerEncoders.get();
    try {
      assembler.encode(call, mine, agent, pid());
    } catch (Throwable t) {
      return new Unbuildable(t).getMessage();
    }
    Thread current = Thread.currentThread();
    ClassLoader previous = current.getContextClassLoader();
    lock();
    try {
      ExcerptAppender a = appender;
      if (a == null) {
        return failure.isEmpty() ? "the queue " + dir + " is closed" : failure;
      }
      current.setContextClassLoader(
          EventLog.class.getClassLoader()); // Chronicle's, as on the writer thread
      write(a, mine);
    } catch (DiskFull d) {
      return d.getMessage();
    } catch (Throwable t) {
      return "writing to " + dir + " failed (" + t + ")";
    } finally {
      appending.unlock();
      current.setContextClassLoader(previous);
    }
    appendedByCallers.increment();
    return null;
  }

  /**
   * Takes the append lock for a run of the writer thread's appends ({@link #append}), so that it is
   * taken once for them all; {@link #endRun()} gives it back. The writer thread only.
   */
  void beginRun() {
    lock();
    inRun = true;
  }

  /**
   * Writes the events the run has batched so far; the writer thread only.
   *
   * @throws DiskFull or {@link BatchFailed} when they could not be written, with how many
   */
  void flushRun() {
    lock();
    try {
      flushBatch(appender);
    } finally {
      appending.unlock();
    }
  }

  /**
   * Ends a run begun by {@link #beginRun()}, writing the events it batched.
   *
   * @throws DiskFull or {@link BatchFailed} when they could not be written, with how many
   */
  void endRun() {
    try {
      flushBatch(appender);
    } finally {
      inRun = false;
      appending.unlock();
    }
  }

  /**
   * Encodes the event (the costly part) before the lock is taken, unless it is held for a run, then
   * writes it.
   */
  private void append(ExcerptAppender a, EventEncoder enc, Captured captured, String agent) {
    try {
      assembler.encode(captured, enc, agent, pid());
    } catch (Throwable t) {
      throw new Unbuildable(t);
    }
    if (inRun) {
      write(a, enc);
      return;
    }
    lock();
    try {
      write(a, enc);
    } finally {
      appending.unlock();
    }
  }

  /** Appends an encoded event with the next {@code seq}; the lock held. */
  private void write(ExcerptAppender a, EventEncoder enc) {
    time.advanceTo(enc.epochMillis());
    long slot = begin();
    boolean differs = false;
    if (inRun) {
      differs = enc.writeBatched(batch, ++seq, batched == 0);
    } else {
      enc.writeTo(excerpt, ++seq);
    }
    put(a, slot, differs);
  }

  /**
   * Where the next event is encoded: in a run of the writer thread, the run's batch (begun if
   * empty), else {@link #excerpt}, cleared. The lock held.
   *
   * @return where its length goes in the batch, or -1
   */
  private long begin() {
    if (!inRun) {
      excerpt.clear();
      return -1;
    }
    if (batched == 0) {
      batch.clear();
      ExcerptEvents.writeBatchStart(batch);
    }
    return ExcerptEvents.beginEvent(batch);
  }

  /**
   * Puts the event just encoded, its {@code seq} the last one given, into the queue: in a run of
   * the writer thread it stays in the run's batch, written when the batch is full or the run ends
   * (one excerpt and one pass through Chronicle's appender for many events: about half of what an
   * event costs there, docs/BENCHMARKS.md); else it is written as an excerpt of its own. The lock
   * held.
   */
  private void put(ExcerptAppender a, long slot, boolean differs) {
    if (!inRun) {
      try {
        writeExcerpt(a, excerpt);
      } catch (DiskFull d) {
        seq--; // not written: seq stays contiguous over the events in the queue
        throw d;
      }
      return;
    }
    ExcerptEvents.endEvent(batch, slot, differs, 0);
    batched++;
    if (batched == ExcerptEvents.MAX_EVENTS || batch.writePosition() >= BATCH_BYTES) {
      flushBatch(a);
    }
  }

  /**
   * Writes the batch as one excerpt, an only event in the layout of one event; the lock held.
   *
   * @throws DiskFull or {@link BatchFailed} when it could not be written: its events are lost, and
   *     their {@code seq}s are given again
   */
  private void flushBatch(ExcerptAppender a) {
    int n = batched;
    if (n == 0) {
      return;
    }
    batched = 0;
    Bytes<?> b = batch;
    if (n == 1) {
      b.readPosition(ExcerptEvents.onlyEvent());
    }
    try {
      writeExcerpt(a, b);
    } catch (DiskFull d) {
      seq -= n; // not written: seq stays contiguous over the events in the queue
      throw new DiskFull(d.getMessage(), n);
    } catch (RuntimeException | Error t) {
      seq -= n;
      throw new BatchFailed(n, t);
    }
  }

  /**
   * Appends the excerpt {@code b}. When another process has already moved the queue on to a later
   * day's file (two agents on one queue, around midnight), an event of the earlier day cannot go
   * into its own day's file any more: it goes into the newest one (its {@code ts} is unchanged;
   * readers order events by it).
   */
  private void writeExcerpt(ExcerptAppender a, Bytes<?> b) {
    ensureRoom(b.readRemaining() + 8); // the excerpt and its header
    long from = b.readPosition();
    try {
      a.writeBytes(b);
    } catch (WriteAfterEOFException laterDayFile) {
      time.advanceTo(Math.max(clock.now().toEpochMilli(), newestCycleStart()));
      b.readPosition(from);
      a.writeBytes(b);
    }
  }

  /**
   * Makes sure the queue's file system has room for {@code bytes} more beyond {@link
   * #RESERVE_BYTES}, checking its free space once every {@link #CHECK_EVERY_BYTES} written (and,
   * while it is full, at most once a second); the lock held.
   *
   * @throws DiskFull when it has not: the event is lost, the queue stays open
   */
  private void ensureRoom(long bytes) {
    roomUntilCheck -= bytes;
    if (roomUntilCheck >= 0) {
      return;
    }
    long now = clock.nanoTime();
    if (full && now - fullSince < FULL_RECHECK_NANOS) {
      throw new DiskFull(diskFull(-1));
    }
    long free;
    try {
      free = store.getUsableSpace();
    } catch (IOException | RuntimeException unknown) {
      roomUntilCheck = CHECK_EVERY_BYTES - bytes; // no answer: as before the check existed
      return;
    }
    long room = free - RESERVE_BYTES;
    if (room < bytes) {
      full = true;
      fullSince = now;
      roomUntilCheck = -1;
      throw new DiskFull(diskFull(free));
    }
    full = false;
    roomUntilCheck = Math.min(room, CHECK_EVERY_BYTES) - bytes;
  }

  private String diskFull(long free) {
    return "the file system of the queue "
        + dir
        + " is full"
        + (free < 0 ? "" : " (" + free + " bytes free)")
        + "; Vigil writes events again when more than "
        + RESERVE_BYTES / 1024
        + " KiB are free";
  }

  /** The start, in epoch milliseconds, of the queue's newest day file. */
  private long newestCycleStart() {
    if (!(queue instanceof RollingChronicleQueue q)) {
      return 0;
    }
    return (long) q.lastCycle() * q.rollCycle().lengthInMillis() + q.epoch();
  }

  /** Takes the append lock: tries a few times before parking, since it is held so briefly. */
  private void lock() {
    for (int i = 0; i < SPINS; i++) {
      if (appending.tryLock()) {
        return;
      }
      Thread.onSpinWait();
    }
    appending.lock();
  }

  /**
   * Closes every appender and the queue, never under an append in flight; the writer thread only.
   *
   * @return how many events of a run's batch were not written (lost)
   */
  int close() {
    appending.lock();
    try {
      ready = false;
      int discarded = batched;
      seq -= discarded;
      batched = 0;
      closeQuietly(appender);
      closeQuietly(queue);
      if (excerpt != null) {
        excerpt.releaseLast();
      }
      if (batch != null) {
        batch.releaseLast();
      }
      appender = null;
      queue = null;
      excerpt = null;
      batch = null;
      return discarded;
    } finally {
      appending.unlock();
    }
  }

  private static void closeQuietly(AutoCloseable c) {
    try {
      if (c != null) {
        c.close();
      }
    } catch (Throwable ignored) {
      // nothing more to do
    }
  }
}
