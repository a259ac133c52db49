package dev.vigil.observe.agent;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import net.openhft.chronicle.core.shutdown.PriorityHook;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;

/**
 * The one thread that writes events. Chronicle appenders are confined to a thread, so application threads only
 * put their {@link CapturedCall} (or {@link CapturedTurn}) into a bounded hand-off queue; this thread builds each
 * event, gives it the next {@code seq} (so {@code seq} is strictly increasing in queue order) and appends it. The
 * queue is opened on the first event. When it cannot be opened or written, events are counted as lost, one line
 * explains it on stderr (at most once a minute), and as soon as writing works again a {@code vigil.dropped} event
 * records how many were lost.
 */
public final class EventWriter {
  /** Calls waiting for the writer; beyond this, a calling thread waits up to {@link #FULL_WAIT_MS}. */
  static final int CAPACITY = 1 << 16;
  /** How long a calling thread waits for room before its event is counted as lost. */
  static final long FULL_WAIT_MS = 2_000;
  private static final int FLUSH_PRIORITY = 10;
  private static final long REOPEN_NANOS = TimeUnit.SECONDS.toNanos(5);
  /** How long the writer sleeps after a quiet spell of about 100 ms, unless a call wakes it. */
  private static final long SLEEP_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

  /** Taken calls are subtracted from {@link #size} in batches of this many, to spare the callers' cache line. */
  private static final int TAKEN_BATCH = 64;

  private final HandOff<Captured> pending = new HandOff<>();
  /**
   * Calls handed over and not yet taken by the writer (may briefly exceed {@link #CAPACITY} by the callers, and lag
   * behind by up to {@link #TAKEN_BATCH} taken calls).
   */
  private final AtomicInteger size = new AtomicInteger();
  private volatile boolean sleeping;
  private final Path queueDir;
  private final EventAssembler assembler;
  private final String configuredAgent;
  private final long pid = ProcessHandle.current().pid();
  private final AtomicLong lost = new AtomicLong();
  private final Thread thread;
  private volatile boolean stopped;

  private ChronicleQueue queue;
  private ExcerptAppender appender;
  private long lastOpenAttempt;
  private boolean attemptedOpen;
  private long seq;
  private long reportedLost;
  private String agent;
  private volatile String lostReason = "";

  /** A writer for the configured queue directory; call {@link #start()} to run it. */
  public EventWriter(AgentConfig config) {
    this.queueDir = config.queueDir();
    this.assembler = new EventAssembler(config);
    this.configuredAgent = config.agentName();
    this.thread = new Thread(this::run, "vigil-writer");
    thread.setDaemon(true);
    thread.setContextClassLoader(EventWriter.class.getClassLoader());
  }

  /**
   * Registers the flush at shutdown, then starts the writer thread. The queue itself is opened on the first event,
   * so an application that calls no tool never loads Chronicle Queue. Registering here, before any call can be
   * instrumented, means no event can be handed over before the flush is in place.
   */
  public void start() {
    registerFlush();
    thread.start();
  }

  /**
   * Hands a finished call, or one side of a turn, to the writer; never throws. The hand-off is lock-free and wakes
   * the writer only when it has gone to sleep after a quiet spell, so a busy application pays no system call per
   * event. A calling thread waits only when {@link #CAPACITY} calls are already waiting.
   */
  public void submit(Captured call) {
    if (stopped) {
      lose("the application was shutting down");
      return;
    }
    if (size.incrementAndGet() > CAPACITY && !waitForRoom()) {
      size.decrementAndGet();
      lose("the writer fell behind (" + CAPACITY + " calls waiting)");
      return;
    }
    pending.offer(call);
    if (sleeping) {
      LockSupport.unpark(thread);
    }
  }

  private boolean waitForRoom() {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(FULL_WAIT_MS);
    LockSupport.unpark(thread);
    while (size.get() > CAPACITY) {
      if (System.nanoTime() > deadline || stopped) {
        return false;
      }
      LockSupport.parkNanos(100_000);
    }
    return true;
  }

  /** Events lost so far. */
  public long lost() {
    return lost.get();
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

  /**
   * Flushes at JVM shutdown as a Chronicle shutdown hooklet that runs before Chronicle releases its resources
   * (priority 99), so the queue is still open while the waiting events are written. Registering it first thing also
   * lets Chronicle install its own JVM hook before the application can begin to exit.
   */
  private void registerFlush() {
    Runnable flush = () -> shutdown(Installer.SHUTDOWN_WAIT_MS);
    try {
      PriorityHook.add(FLUSH_PRIORITY, flush);
    } catch (Throwable chronicleUnavailable) {
      try {
        Runtime.getRuntime().addShutdownHook(new Thread(flush, "vigil-shutdown"));
      } catch (IllegalStateException shuttingDown) {
        // the application is already exiting; what is waiting is written while the JVM lets this thread run
      }
    }
  }

  private void lose(String reason) {
    lost.incrementAndGet();
    lostReason = reason;
    Stderr.warn("lost", () -> "events are being lost (" + lost.get() + " so far): " + reason
        + "; the application is not affected");
  }

  private void run() {
    try {
      int idle = 0;
      int taken = 0;
      while (true) {
        Captured call = pending.poll();
        if (call != null) {
          if (++taken == TAKEN_BATCH) {
            size.addAndGet(-taken);
            taken = 0;
          }
          idle = 0;
          write(call);
          continue;
        }
        if (taken > 0) {
          size.addAndGet(-taken);
          taken = 0;
        }
        if (stopped) {
          return;
        }
        idle++;
        if (idle < 100) {
          LockSupport.parkNanos(1_000_000);
        } else {
          reportLost();
          sleeping = true;
          if (pending.isEmpty() && !stopped) {
            LockSupport.parkNanos(SLEEP_NANOS);
          }
          sleeping = false;
        }
      }
    } finally {
      close();
    }
  }

  private void write(Captured call) {
    if (!ensureOpen()) {
      lose(lostReason);
      return;
    }
    reportLost();
    Event event;
    try {
      event = call instanceof CapturedCall c
          ? assembler.assemble(c, agent(), seq + 1, pid)
          : assembler.assemble((CapturedTurn) call, agent(), seq + 1, pid);
    } catch (Throwable t) {
      lose("an event could not be built (" + t.getClass().getName() + ")");
      return;
    }
    append(event);
  }

  private void append(Event event) {
    try {
      EventWire.append(appender, event);
      seq = event.seq();
    } catch (Throwable t) {
      lose("writing to " + queueDir + " failed (" + t + ")");
      close();
    }
  }

  /** Writes a {@code vigil.dropped} event when events were lost since the last one and the queue works. */
  private void reportLost() {
    long now = lost.get();
    if (now == reportedLost || appender == null) {
      return;
    }
    ObjectNode payload = JsonNodeFactory.instance.objectNode();
    payload.put("count", now - reportedLost);
    payload.put("total", now);
    payload.put("reason", lostReason);
    Event event = new Event(Instant.now(), "vigil.dropped", "ok", payload, agent(), seq + 1, pid,
        Thread.currentThread().getName(), null, null, null);
    reportedLost = now;
    append(event);
  }

  private boolean ensureOpen() {
    if (appender != null) {
      return true;
    }
    long now = System.nanoTime();
    if (attemptedOpen && now - lastOpenAttempt < REOPEN_NANOS) {
      return false;
    }
    attemptedOpen = true;
    lastOpenAttempt = now;
    try {
      if (Files.exists(queueDir) && !Files.isDirectory(queueDir)) {
        throw new IOException(queueDir + " exists and is not a directory");
      }
      Files.createDirectories(queueDir);
      queue = EventQueues.openForWriting(queueDir);
      appender = queue.createAppender();
      return true;
    } catch (Throwable t) {
      close();
      lostReason = "cannot write events to the queue " + queueDir + " (" + describe(t) + ")";
      return false;
    }
  }

  private static String describe(Throwable t) {
    String m = t.getMessage();
    return t.getClass().getSimpleName() + (m == null ? "" : ": " + m);
  }

  private void close() {
    try {
      if (appender != null) {
        appender.close();
      }
      if (queue != null) {
        queue.close();
      }
    } catch (Throwable ignored) {
      // nothing more to do
    }
    appender = null;
    queue = null;
  }

  private String agent() {
    if (agent == null) {
      agent = configuredAgent != null ? configuredAgent : AgentName.fromCommandLine();
    }
    return agent;
  }
}
