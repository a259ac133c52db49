package dev.vigil.observe.writer;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.observe.agent.AgentConfig;
import dev.vigil.observe.agent.AgentName;
import dev.vigil.observe.agent.Stderr;
import dev.vigil.observe.agent.TimeSource;
import dev.vigil.observe.capture.CaptureSink;
import dev.vigil.observe.capture.Captured;
import dev.vigil.observe.capture.CapturedCall;
import dev.vigil.observe.capture.CapturedTurn;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import net.openhft.chronicle.core.shutdown.PriorityHook;

/**
 * The one thread that writes events. Application threads only put their {@link CapturedCall} (or
 * {@link CapturedTurn}) into a hand-off queue; this thread builds each event and appends it to the
 * {@link EventLog}, which gives it the next {@code seq} (strictly increasing in queue order). When
 * the hand-off is full ({@link #CAPACITY} calls until the queue is open, {@link #OPEN_CAPACITY}
 * after), a calling thread waits for room, or appends its own event itself ({@link EventLog}; none
 * lost, however far the writer falls behind). The queue is opened once the first event has waited
 * {@code vigil.queue.open-delay-ms} (sooner when calls pile up), so that a process that ends before
 * then never opens it: its events go to a spill file at exit ({@link EventLog#spill},
 * docs/DESIGN.md#spill-files), and its exit does not wait for Chronicle. When it cannot be opened
 * or written, events are counted as lost, one line explains it on stderr (at most once a minute),
 * and as soon as writing works again a {@code vigil.dropped} event records how many were lost.
 */
public final class EventWriter implements CaptureSink {
  /**
   * Calls waiting for the writer while the queue is not open yet (those made while it opens);
   * beyond this, a calling thread appends its own event.
   */
  static final int CAPACITY = 1 << 16;

  /**
   * Calls waiting for the writer once the queue is open; beyond this, a calling thread waits for
   * room ({@link #awaitRoom}). A call waiting in the hand-off when the garbage collector runs is
   * live, and is copied by it: with 65,536, a hand-off kept full by an application that outruns the
   * writer made the collector 18 % of the process's CPU in a benchmark pinned to one core
   * (docs/BENCHMARKS.md). Far more than the writer's runs ({@link #RUN}), and some milliseconds of
   * its work.
   */
  static final int OPEN_CAPACITY = 1 << 13;

  /**
   * How long a calling thread that finds the hand-off full waits for the writer's first attempt to
   * open the queue (loading Chronicle takes a while) before its event is counted as lost.
   */
  static final long OPEN_WAIT_MS = 10_000;

  /** Calls waiting for the queue's first opening that have it opened at once. */
  static final int OPEN_AT_CALLS = 4096;

  private static final int FLUSH_PRIORITY = 10;

  /** How long the flush at JVM shutdown waits for waiting events to be written. */
  static final long SHUTDOWN_WAIT_MS = 10_000;

  /** How long the writer sleeps after a quiet spell, unless a call wakes it. */
  private static final long SLEEP_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

  /**
   * Naps the writer takes when it finds nothing, before it sleeps until a call wakes it. Calls a
   * few microseconds apart find it napping and hand over without waking it (a wake-up costs the
   * calling thread a system call); a call after a quiet spell of a few hundred microseconds wakes
   * it, and is written at once.
   */
  private static final int NAPS = 4;

  private static final long NAP_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

  /**
   * How long a caller that finds the hand-off full waits for the writer to take a call from it
   * before it appends its own event: far longer than the writer takes for {@link #TAKEN_BATCH}
   * events.
   */
  private static final long ROOM_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

  /** Busy waits for room before yielding, with more than one core; none on one core. */
  private static final int SPINS_BEFORE_YIELD =
      Runtime.getRuntime().availableProcessors() > 1 ? 64 : 0;

  /**
   * Yields before parking: a caller still waiting then parks a while at a time, leaving the cores
   * to the writer (with many callers, their yields took a third of the CPU the writer needed).
   */
  private static final int YIELDS_BEFORE_PARK = 8;

  private static final long ROOM_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

  /** Events the writer appends under one taking of the append lock, at most. */
  private static final int RUN = 256;

  /**
   * Taken calls are subtracted from {@link #size} in batches of this many, to spare the callers'
   * cache line.
   */
  private static final int TAKEN_BATCH = 64;

  private final HandOff<Captured> pending;

  /**
   * Calls handed over and not yet taken by the writer (may briefly exceed {@link #limit} by the
   * callers, and lag behind by up to {@link #TAKEN_BATCH} taken calls).
   */
  private final AtomicInteger size = new AtomicInteger();

  /** {@link #CAPACITY}, or less in tests. */
  private final int capacity;

  /** {@link #OPEN_CAPACITY}, or {@link #capacity} when that is less. */
  private final int openCapacity;

  /**
   * Calls the hand-off takes: {@link #capacity} until the queue is first open, then {@link
   * #openCapacity}; set by the writer thread.
   */
  private volatile int limit;

  private volatile boolean sleeping;

  private final Path queueDir;
  private final AgentConfig config;

  /**
   * The log, made by the writer thread as it starts (its classes and Chronicle's that they name are
   * loaded there, not while the instrumentation waits for this writer); null until then.
   */
  private volatile EventLog log;

  /** Why events are lost once {@link #stopped}, when it is not the application's exit. */
  private volatile String stopReason;

  /**
   * Run by the writer thread before it first opens the queue ({@link #start(Runnable)}), or null.
   */
  private Runnable beforeFirstOpen;

  private final String configuredAgent;
  private final AtomicLong lost = new AtomicLong();
  private final TimeSource time;

  /**
   * How long the first event waits before the queue is opened for it ({@code
   * vigil.queue.open-delay-ms}): a process that ends sooner spills its events rather than wait for
   * Chronicle to open (hundreds of milliseconds of a short process's life, docs/BENCHMARKS.md).
   */
  private final long openDelayNanos;

  /** Calling threads waiting for the writer's first attempt to open the queue. */
  private final AtomicInteger waitingForOpen = new AtomicInteger();

  private final Thread thread;
  private volatile boolean stopped;

  /**
   * A calling thread waited {@link #OPEN_WAIT_MS} for the first open in vain: the next ones do not
   * wait.
   */
  private volatile boolean openOverdue;

  private long reportedLost;

  /**
   * When the writer first found an event waiting for the queue's first opening ({@link #time}'s
   * nanoseconds), once {@link #sawWaiting} (the writer thread only).
   */
  private long firstWaiting;

  private boolean sawWaiting;

  /**
   * Whether the first opening's preparation ran: {@link #beforeFirstOpen}, and the flush registered
   * with Chronicle (the writer thread only).
   */
  private boolean chronicleFlush;

  /** Idle rounds in a row (the writer thread only). */
  private int idle;

  /** Calls taken and not yet subtracted from {@link #size} (the writer thread only). */
  private int taken;

  /** Computed once, on first use (a racy but safe initialization: a String is immutable). */
  private String agent;

  private volatile String lostReason = "";

  /** A writer for the configured queue directory; call {@link #start()} to run it. */
  public EventWriter(AgentConfig config) {
    this(config, CAPACITY);
  }

  /** A writer whose hand-off holds {@code capacity} calls. */
  EventWriter(AgentConfig config, int capacity) {
    this(config, capacity, TimeSource.SYSTEM);
  }

  /**
   * A writer whose hand-off holds {@code capacity} calls, reading deadlines and event times from
   * {@code time}.
   */
  EventWriter(AgentConfig config, int capacity, TimeSource time) {
    this.time = time;
    this.capacity = capacity;
    this.openCapacity = Math.min(capacity, OPEN_CAPACITY);
    this.limit = capacity;
    this.pending = new HandOff<>(capacity);
    this.queueDir = config.queueDir();
    this.config = config;
    this.configuredAgent = config.agentName();
    this.openDelayNanos = TimeUnit.MILLISECONDS.toNanos(config.openDelayMs());
    this.thread = new Thread(new WriterLoop(), "vigil-writer");
    thread.setDaemon(true);
    thread.setContextClassLoader(EventWriter.class.getClassLoader());
  }

  /**
   * Registers the flush at shutdown, then starts the writer thread. The queue itself is opened
   * later, for the first event ({@link #openDelayNanos}), so an application that loads no tool
   * never loads Chronicle Queue. Registering here, before any call can be instrumented, means no
   * event can be handed over before the flush is in place.
   */
  public void start() {
    start(null);
  }

  /**
   * {@link #start()}, with {@code beforeFirstOpen} run on the writer thread before it first opens
   * the queue (Chronicle's module access, which a process that only spills never needs); when it
   * throws, the writer stops and every event is lost with the reason.
   */
  public void start(Runnable beforeFirstOpen) {
    this.beforeFirstOpen = beforeFirstOpen;
    try {
      Runtime.getRuntime().addShutdownHook(new Thread(new Flush(), "vigil-shutdown"));
    } catch (IllegalStateException shuttingDown) {
      // the application is already exiting; what is waiting is written while the JVM lets this
      // thread run
    }
    thread.start();
  }

  /**
   * Hands a finished call, or one side of a turn, to the writer; never throws. The hand-off is
   * lock-free and wakes the writer only when it has gone to sleep after a quiet spell, so a busy
   * application pays no system call per event. When the hand-off is full, the calling thread waits
   * for room or appends its event itself.
   */
  @Override
  public void submit(Captured call) {
    if (stopped) {
      lose(stoppedReason());
      return;
    }
    if (size.incrementAndGet() > limit) {
      size.decrementAndGet();
      if (!awaitRoom()) {
        appendHere(call);
        return;
      }
    }
    pending.offer(call);
    if (sleeping) {
      LockSupport.unpark(thread);
    }
  }

  /**
   * The hand-off is full: waits for room while the writer is taking calls from it, and takes a
   * place in it; false when the writer has not opened the queue yet, or took nothing for {@link
   * #ROOM_WAIT_NANOS} (the caller then appends its own event). Measured: a caller that appended
   * beside the writer made the two threads pass the append lock and Chronicle's state between cores
   * at every event, doubling the CPU of an event and capping back-to-back calls below 1,000,000/s;
   * waiting a few hundred nanoseconds for the writer does not. On one core the caller yields at
   * once, so that the writer can run.
   */
  // Thread.yield on purpose: the step between spinning and parking, measured as above
  @SuppressWarnings("ThreadPriorityCheck")
  private boolean awaitRoom() {
    EventLog l = log;
    if (l == null || !l.isReady()) {
      return false;
    }
    int seen = size.get();
    long since = 0;
    for (int round = 0; ; round++) {
      if (round < SPINS_BEFORE_YIELD) {
        Thread.onSpinWait();
      } else if (round < SPINS_BEFORE_YIELD + YIELDS_BEFORE_PARK) {
        Thread.yield();
      } else {
        LockSupport.parkNanos(ROOM_PARK_NANOS);
      }
      int now = size.get();
      if (now < limit) {
        if (size.compareAndSet(now, now + 1)) {
          return true;
        }
        continue;
      }
      if (stopped) {
        return false;
      }
      if (now != seen) {
        seen = now;
        since = 0;
      } else if (since == 0) {
        since = time.nanoTime();
      } else if (time.nanoTime() - since > ROOM_WAIT_NANOS) {
        return false;
      }
    }
  }

  /**
   * The hand-off is full: the calling thread appends its own event, once the writer has tried to
   * open the queue.
   */
  private void appendHere(Captured call) {
    if (!attempted() && !awaitFirstOpen()) {
      lose(
          stopped
              ? stoppedReason()
              : "the writer did not open the queue "
                  + queueDir
                  + " within "
                  + OPEN_WAIT_MS
                  + " ms");
      return;
    }
    String failure = log.appendHere(call, agent());
    if (failure != null) {
      lose(failure);
    }
  }

  /** Why an event handed over once {@link #stopped} is lost. */
  private String stoppedReason() {
    String reason = stopReason;
    return reason != null ? reason : "the application was shutting down";
  }

  /** Whether the writer thread has tried to open the queue. */
  private boolean attempted() {
    EventLog l = log;
    return l != null && l.attempted();
  }

  private boolean awaitFirstOpen() {
    if (openOverdue) {
      return false;
    }
    long deadline = time.nanoTime() + TimeUnit.MILLISECONDS.toNanos(OPEN_WAIT_MS);
    LockSupport.unpark(thread);
    waitingForOpen.incrementAndGet();
    try {
      while (!attempted()) {
        if (stopped || thread.getState() == Thread.State.TERMINATED) {
          return false;
        }
        if (time.nanoTime() - deadline > 0) {
          openOverdue = true;
          return false;
        }
        LockSupport.parkNanos(100_000);
      }
      return true;
    } finally {
      waitingForOpen.decrementAndGet();
    }
  }

  /** Calling threads now waiting for the writer's first attempt to open the queue. */
  int waitingForOpen() {
    return waitingForOpen.get();
  }

  /** Events lost so far. */
  public long lost() {
    return lost.get();
  }

  /** Why the last event was lost ("" while none was). */
  String lostReason() {
    return lostReason;
  }

  /** Events appended by calling threads that found the hand-off full. */
  long appendedByCallers() {
    EventLog l = log;
    return l == null ? 0 : l.appendedByCallers();
  }

  /** Writes what is waiting and closes the queue; waits at most {@code timeoutMs}. */
  public void shutdown(long timeoutMs) {
    stopped = true;
    if (!thread.isAlive() || Thread.currentThread() == thread) {
      return;
    }
    LockSupport.unpark(thread);
    try {
      thread.join(timeoutMs);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Writes what is waiting at JVM shutdown (a spill file when the queue was never opened). */
  private void flush() {
    shutdown(SHUTDOWN_WAIT_MS);
  }

  /**
   * Opens the log; false once the writer is stopped by a failure. The first time, it first runs
   * {@link #beforeFirstOpen} (Chronicle's module access; its failure stops the writer), then
   * registers the flush again as a Chronicle shutdown hooklet: Chronicle's own JVM hook then runs
   * it before it releases its resources, so the queue is still open while the waiting events are
   * written. Registering it only now spares a process that never opens the queue (it spills)
   * loading Chronicle's core at start, about 60 ms of the agent's start (docs/BENCHMARKS.md). The
   * writer thread only.
   */
  private boolean openLog() {
    if (stopReason != null) {
      return false;
    }
    if (!chronicleFlush) {
      chronicleFlush = true;
      try {
        if (beforeFirstOpen != null) {
          beforeFirstOpen.run();
        }
      } catch (Throwable t) {
        stop("the event writer could not open the queue", t);
        return false;
      }
      try {
        PriorityHook.add(FLUSH_PRIORITY, new Flush());
      } catch (Throwable chronicleUnavailable) {
        // the plain JVM hook registered at start still flushes
      }
    }
    return log.open();
  }

  private void lose(String reason) {
    lose(1, reason);
  }

  private void lose(long events, String reason) {
    if (events <= 0) {
      return;
    }
    lost.addAndGet(events);
    lostReason = reason;
    Stderr.warn(
        "lost",
        () ->
            "events are being lost ("
                + lost.get()
                + " so far): "
                + reason
                + "; the application is not affected");
  }

  /**
   * The writer thread: takes and writes calls until it is stopped with nothing left. It never dies
   * of an error: a throwable nobody foresaw (the JVM reports a fault in mapped memory late, at any
   * point of the thread) costs the call in hand, counted as lost, and the queue is reopened on the
   * next event. Calls still waiting when it ends are counted as lost, never dropped unseen.
   */
  private void run() {
    try {
      log = new EventLog(queueDir, new EventAssembler(config, time), 0, time); // 0: this process
    } catch (Throwable t) {
      stop("the event writer could not start", t);
      return;
    }
    try {
      try {
        log.pid(); // here rather than while the instrumentation waits for this writer
      } catch (Throwable unavailable) {
        // looked up again, and counted, when an event needs it
      }
      boolean more = true;
      while (more) {
        try {
          more = step();
        } catch (Throwable t) {
          lose("writing to " + queueDir + " failed (" + t + ")");
          log.close();
          LockSupport.parkNanos(NAP_NANOS); // no busy loop should the fault repeat
        }
      }
    } finally {
      log.close();
      loseWaiting();
    }
  }

  /**
   * Stops the writer for good: every event waiting or handed over later is lost with the reason.
   */
  private void stop(String what, Throwable t) {
    stopReason = what + " (" + t + ")";
    stopped = true;
    Stderr.line(what + ", no event is recorded: " + t);
    loseWaiting();
  }

  /**
   * One round of the writer thread: a run of calls written, or the queue opened, or a nap or a
   * sleep when there is nothing to do; false once stopped with nothing waiting.
   */
  private boolean step() {
    if (!log.attempted() && !pending.isEmpty()) {
      if (stopReason != null) {
        loseWaiting();
        return false;
      }
      if (stopped) {
        spillWaiting();
        return false;
      }
      long wait = untilOpen();
      if (wait > 0) {
        LockSupport.parkNanos(wait);
        return true;
      }
      openLog(); // a failure is reported with the first event that cannot be written
    }
    Captured call = pending.poll();
    if (call != null) {
      idle = 0;
      log.beginRun();
      try {
        int n = 0;
        do {
          if (++taken == TAKEN_BATCH) {
            size.addAndGet(-taken);
            taken = 0;
          }
          write(call);
        } while (++n < RUN && (call = pending.poll()) != null);
      } finally {
        endRun();
      }
      return true;
    }
    if (taken > 0) {
      size.addAndGet(-taken);
      taken = 0;
    }
    if (stopped) {
      return false;
    }
    idle++;
    if (idle <= NAPS) {
      LockSupport.parkNanos(NAP_NANOS);
    } else {
      reportLost();
      sleeping = true;
      if (pending.isEmpty() && !stopped) {
        LockSupport.parkNanos(SLEEP_NANOS);
      }
      sleeping = false;
    }
    return true;
  }

  /**
   * Nanoseconds until the queue's first opening is due, or 0: due once the first event has waited
   * {@link #openDelayNanos}, or {@link #OPEN_AT_CALLS} calls wait, or a calling thread waits for
   * it.
   */
  private long untilOpen() {
    long now = time.nanoTime();
    if (!sawWaiting) {
      sawWaiting = true;
      firstWaiting = now;
    }
    if (waitingForOpen.get() > 0 || size.get() >= OPEN_AT_CALLS) {
      return 0;
    }
    long left = openDelayNanos - (now - firstWaiting);
    return Math.max(0, Math.min(left, SLEEP_NANOS));
  }

  /**
   * The application is ending before the queue was ever opened: the waiting calls go to a spill
   * file, imported into the queue later, so the exit does not wait for Chronicle.
   */
  private void spillWaiting() {
    List<Captured> calls = new ArrayList<>();
    for (Captured c = pending.poll(); c != null; c = pending.poll()) {
      calls.add(c);
    }
    try {
      lose(log.spill(calls, agent()), "an event could not be built");
    } catch (Throwable t) {
      lose(calls.size(), "writing a spill file to " + queueDir + " failed (" + t + ")");
    }
  }

  /** Counts the calls left in the hand-off when the writer thread ends as lost. */
  private void loseWaiting() {
    for (Captured left = pending.poll(); left != null; left = pending.poll()) {
      lose("the writer stopped before writing it");
    }
  }

  private void write(Captured call) {
    if (!openLog()) {
      lose(stopReason != null ? stopReason : log.failure());
      return;
    }
    if (limit != openCapacity) {
      limit = openCapacity; // the queue is open: the calls made while it opened are written
    }
    reportLost();
    try {
      log.append(call, agent());
    } catch (EventLog.Unbuildable u) {
      lose(u.getMessage()); // the queue is fine: it stays open
    } catch (Throwable t) {
      lose(t, 0);
    }
  }

  /** Ends the log's run: the events it batched are written, or counted as lost. */
  private void endRun() {
    try {
      log.endRun();
    } catch (Throwable t) {
      lose(t, 0);
    }
  }

  /**
   * Counts what a failed write lost: the events it names (a batch's), or one, less {@code
   * notEvents} of them that were not calls; on a failure other than a full file system the queue is
   * closed (reopened at the next event), and the events its batch still held are lost too.
   */
  private void lose(Throwable t, int notEvents) {
    if (t instanceof EventLog.DiskFull d) {
      lose(d.events() - notEvents, d.getMessage()); // the queue is fine: it stays open
      return;
    }
    int events = t instanceof EventLog.BatchFailed f ? f.events() : 1;
    Throwable cause = t instanceof EventLog.BatchFailed && t.getCause() != null ? t.getCause() : t;
    String reason = "writing to " + queueDir + " failed (" + cause + ")";
    lose(events - notEvents, reason);
    lose(log.close(), reason);
  }

  /**
   * Writes a {@code vigil.dropped} event when events were lost since the last one and the queue
   * works.
   */
  private void reportLost() {
    long now = lost.get();
    if (now == reportedLost || !log.isOpen()) {
      return;
    }
    try {
      log.flushRun(); // the calls batched before it: a failure is theirs, and counted
    } catch (Throwable t) {
      lose(t, 0);
      return; // reported with a later call
    }
    now = lost.get();
    ObjectNode payload = JsonNodeFactory.instance.objectNode();
    payload.put("count", now - reportedLost);
    payload.put("total", now);
    payload.put("reason", lostReason);
    long before = reportedLost;
    reportedLost = now;
    try {
      log.appendDropped(payload, agent(), Thread.currentThread().getName());
    } catch (EventLog.DiskFull stillFull) {
      reportedLost = before; // written once there is room
    } catch (Throwable t) {
      lose(t, 0);
    }
  }

  private String agent() {
    if (agent == null) {
      agent = configuredAgent != null ? configuredAgent : AgentName.fromCommandLine();
    }
    return agent;
  }

  /**
   * The writer thread's body, a class rather than a method reference: Vigil's start links no lambda
   * (docs/DESIGN.md#the-start-path).
   */
  private final class WriterLoop implements Runnable {
    @Override
    public void run() {
      EventWriter.this.run();
    }
  }

  /** The flush at exit ({@link #flush}), a class for the same reason as {@link WriterLoop}. */
  private final class Flush implements Runnable {
    @Override
    public void run() {
      flush();
    }
  }
}
