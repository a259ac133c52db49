package dev.vigil.watch;

import dev.vigil.fleet.AgentScan;
import dev.vigil.fleet.FleetLayout;
import dev.vigil.ingest.QueueSource;
import dev.vigil.ingest.QueueSpills;
import dev.vigil.io.Notice;
import dev.vigil.io.OwnerOnly;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.Timestamps;
import dev.vigil.orchestrate.Depositor;
import dev.vigil.orchestrate.PassOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * The {@code watch} loop. One thread tails the queue from the position the banks committed,
 * appraises each new event and deposits it into its agent's EmoBank ({@link TailDeposits}), commits
 * in small batches, and runs a pass when a trigger fires ({@link PassTriggers}) and the backlog is
 * read. A pass runs on a thread of its own beside the tail, one at a time ({@link PassThread}): it
 * reads each bank as the tail last committed it and deposits nothing itself, so the tail stays each
 * bank's one writer and events that arrive during a pass are appraised and committed as they come;
 * the derived events a pass finds are deposited by the tail when the pass ends. Rows older than the
 * retention are compacted by the tail before a pass. {@link #stop()} (from a signal) ends the loop
 * after the pass in flight, which is interrupted if it runs past {@link #STOP_GRACE}; the banks are
 * then committed at the last excerpt read, where the next {@code watch} resumes.
 */
public final class Watcher {
  /** Deposits committed at once at most, while reading a backlog. */
  static final int BATCH = 1_000;

  /** The longest a deposit waits for its batch's commit. */
  static final Duration MAX_BATCH_WAIT = Duration.ofMillis(100);

  /**
   * How long the loop parks when the queue has had nothing new for a while. Parking is the pause
   * between two reads of the queue, not a time the loop waits for: nothing is decided by it, so it
   * is the one use of real time here.
   */
  static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  /**
   * How long it parks for the first {@link #BRISK_SPELL} after an event (on the clock): an agent
   * making calls in a burst sees its next event appraised a fraction of a millisecond sooner, and a
   * quiet agent costs no more wake-ups.
   */
  static final long BRISK_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(100);

  static final Duration BRISK_SPELL = Duration.ofMillis(50);

  /**
   * How long a stop waits, on the clock, for the pass in flight to end before interrupting it: a
   * pass over millions of events would otherwise hold a SIGTERM for minutes. An interrupted pass
   * writes nothing and deposits nothing of its own; the events are the tail's, and the next pass
   * diagnoses them.
   */
  static final Duration STOP_GRACE = Duration.ofSeconds(30);

  /**
   * What {@code watch} was asked to do.
   *
   * @param template the {@code run} options every pass starts from (its {@code now} is replaced per
   *     pass)
   * @param every {@code --every}, or null
   * @param afterEvents {@code --after-events}, or 0
   * @param onThorns {@code --on-thorns}, or null
   * @param onAlarm {@code --on-alarm}: {@code watch} or {@code alarm}, or null
   */
  public record Settings(
      PassOptions template, Duration every, int afterEvents, ThornRate onThorns, String onAlarm) {
    /** Settings without {@code --on-alarm}. */
    public Settings(PassOptions template, Duration every, int afterEvents, ThornRate onThorns) {
      this(template, every, afterEvents, onThorns, null);
    }
  }

  /**
   * What a {@code watch} did, reported when it stops.
   *
   * @param deposited events deposited as they arrived
   * @param passes passes run
   * @param failed of those, passes that failed
   * @param position the index of the last excerpt read, kept for the next {@code watch}
   * @param delay the append-to-appraisal delay
   */
  public record Totals(
      long deposited, long passes, long failed, long position, DelayStats.Summary delay) {}

  private final Settings settings;
  private final WatchPasses passes;
  private final Clock clock;
  private final PrintWriter out;
  private final PrintWriter err;
  private final DelayStats delays = new DelayStats();

  /** Imports the queue's spill files while the queue runs dry; set by {@link #run}. */
  private QueueSpills spills;

  private volatile boolean stopping;
  private volatile Thread loopThread;
  private volatile long depositedSoFar;

  /**
   * @param runner runs each pass ({@link dev.vigil.api.Analyzer#run(PassOptions)} in production)
   * @param clock the one time source: each pass's now, the {@code --every} schedule, the batches'
   *     commit wait, the brisk spell after an event and the delay measurement
   * @param out pass lines, progress, start and stop lines
   * @param err what went wrong in a pass, one line each
   */
  public Watcher(
      Settings settings, PassRunner runner, Clock clock, PrintWriter out, PrintWriter err) {
    this.settings = settings;
    this.passes =
        new WatchPasses(
            settings.template(),
            runner,
            clock,
            out,
            err,
            delays,
            new AlarmNotice(settings.onAlarm()));
    this.clock = clock;
    this.out = out;
    this.err = err;
  }

  /**
   * Asks the loop to stop after the pass in flight (interrupted if it runs {@link #STOP_GRACE}
   * longer); safe from any thread (a signal handler).
   */
  public void stop() {
    stopping = true;
    Thread t = loopThread;
    if (t != null) {
      LockSupport.unpark(t);
    }
  }

  /** Events deposited as they arrived so far; read from any thread. */
  public long deposited() {
    return depositedSoFar;
  }

  /** The append-to-appraisal delay so far. */
  public DelayStats.Summary delay() {
    return delays.summary();
  }

  /**
   * Runs until {@link #stop()}. A queue the agent has not created yet is waited for ({@link
   * QueueArrival}).
   *
   * @throws IllegalArgumentException naming the queue when it can never be one (a file, unreadable)
   */
  public Totals run() throws IOException {
    loopThread = Thread.currentThread();
    PassOptions t = settings.template();
    if (!QueueArrival.await(t.queue(), () -> stopping, clock, out)) {
      out.println(
          Timestamps.format(clock.instant())
              + " watch stopped: the queue "
              + t.queue()
              + " was never created; nothing read");
      out.flush();
      return new Totals(0, 0, 0, -1, delays.summary());
    }
    QueueSource source =
        new QueueSource(t.queue()); // checks the directory, names the position's key
    spills = new QueueSpills(t.queue(), "watch");
    spills.importIfDue(System.nanoTime());
    Instant started = clock.instant();
    Instant from = started.minus(t.window());
    Set<String> agents = AgentScan.inQueue(t.queue(), from, null);
    FleetLayout layout = FleetLayout.of(t.emobank(), t.out(), agents);
    if (layout.fleet()) {
      OwnerOnly.createDirectories(t.emobank().resolve(FleetLayout.AGENTS));
    }
    PassTriggers triggers = new PassTriggers(settings, t.rules().rbt(), started);
    LiveDelays live = new LiveDelays(delays, clock, started);
    Loop loop;
    try (LiveBanks banks = new LiveBanks(layout, source.key(), t.window(), t.halfLife());
        ChronicleQueue queue = EventQueues.openForReading(t.queue());
        PassThread passThread = new PassThread(passes, clock, out, err)) {
      TailDeposits tail =
          new TailDeposits(
              banks,
              source.key(),
              from,
              agents,
              new Depositor(t.rules()),
              triggers,
              live,
              clock,
              out);
      long position = banks.resumePosition();
      ExcerptTailer tailer = queue.createTailer();
      resume(tailer, position, t);
      Progress progress = Progress.of(queue, position, clock.instant());
      printStarted(started, t, triggers, layout, agents.size(), position, progress);
      loop =
          new Loop(
              banks,
              tail,
              triggers,
              live,
              passThread,
              tailer,
              progress,
              t.retention(),
              position,
              started);
      loop.run();
    }
    return stopped(loop.tail, loop.position);
  }

  /**
   * Moves the tailer past the excerpt at {@code position}, the one the banks were committed at;
   * when the queue no longer holds it, warns and reads from the queue's start. A position below 0
   * leaves the tailer at the start.
   */
  private void resume(ExcerptTailer tailer, long position, PassOptions t) {
    if (position >= 0 && tailer.moveToIndex(position)) {
      tailer.readingDocument().close(); // read before the last stop
    } else if (position >= 0) {
      err.println(
          Notice.line(
              clock.instant(),
              "watch",
              Notice.Level.WARN,
              "queue "
                  + t.queue()
                  + " no longer holds the position "
                  + position
                  + "; reading from its start (events deposited before are recognized and skipped)"));
      tailer.toStart();
    }
  }

  /** The start line: the queue, the triggers, the fleet, where reading resumes and the backlog. */
  private void printStarted(
      Instant started,
      PassOptions t,
      PassTriggers triggers,
      FleetLayout layout,
      int agents,
      long position,
      Progress progress) {
    out.println(
        Timestamps.format(started)
            + " watch started: queue "
            + t.queue()
            + ", "
            + triggers.describe()
            + (layout.fleet() ? ", fleet of " + agents + " agents" : "")
            + (position >= 0
                ? ", resuming after excerpt " + Long.toHexString(position)
                : ", reading from the start")
            + (progress.backlog() > 0 ? ", backlog " + progress.backlog() + " excerpts" : ""));
    out.flush();
  }

  /** The stop line, and the totals it reports. */
  private Totals stopped(TailDeposits tail, long position) {
    Totals totals =
        new Totals(tail.deposited(), passes.passes(), passes.failed(), position, delays.summary());
    out.println(
        Timestamps.format(clock.instant())
            + " watch stopped: "
            + tail.deposited()
            + " events deposited live, "
            + passes.passes()
            + (passes.passes() == 1 ? " pass (" : " passes (")
            + passes.failed()
            + " failed), "
            + (tail.skipped() > 0 ? tail.skipped() + " excerpts skipped, " : "")
            + "read position "
            + (position >= 0 ? Long.toHexString(position) : "none")
            + " kept; "
            + totals.delay().line());
    out.flush();
    return totals;
  }

  /**
   * What one batch read from the queue.
   *
   * @param read excerpts read
   * @param dry whether the queue had nothing more to read
   */
  private record Batch(int read, boolean dry) {}

  /**
   * The loop over the open queue and banks: its read position and the marks the commits and the
   * brisk spell are timed from. One instance per {@link #run()}, used by the loop's thread only.
   */
  private final class Loop {
    private final LiveBanks banks;
    private final TailDeposits tail;
    private final PassTriggers triggers;
    private final LiveDelays live;
    private final PassThread passThread;
    private final ExcerptTailer tailer;
    private final Progress progress;
    private final Duration retention;

    /** The index of the last excerpt read, or -1 when none has been. */
    private long position;

    /** When the oldest deposit not committed yet was made, or null when everything is committed. */
    private Instant firstUncommitted;

    /** When an excerpt was last read. */
    private Instant lastRead;

    Loop(
        LiveBanks banks,
        TailDeposits tail,
        PassTriggers triggers,
        LiveDelays live,
        PassThread passThread,
        ExcerptTailer tailer,
        Progress progress,
        Duration retention,
        long position,
        Instant started) {
      this.banks = banks;
      this.tail = tail;
      this.triggers = triggers;
      this.live = live;
      this.passThread = passThread;
      this.tailer = tailer;
      this.progress = progress;
      this.retention = retention;
      this.position = position;
      this.lastRead = started.minus(BRISK_SPELL);
    }

    /**
     * Reads, deposits, commits and starts passes until {@link #stop()}; then waits for the pass in
     * flight, deposits what it found and commits the banks at the last excerpt read.
     */
    void run() throws IOException {
      while (!stopping) {
        Batch batch = readBatch();
        absorbEndedPass();
        depositedSoFar = tail.deposited();
        Instant now = clock.instant();
        progress.read(batch.read(), batch.dry(), now, out);
        if (batch.read() > 0) {
          lastRead = now;
        }
        commitIfDue(batch.dry(), now);
        if (!batch.dry() || stopping || spills.importIfDue(System.nanoTime()) > 0) {
          continue;
        }
        if (!startDuePass(now)) {
          park(now);
        }
      }
      settlePassInFlight();
      tail.absorb(passThread.await()); // waits for the pass in flight
      banks.commitAndClose(position, clock.instant());
      live.committed();
    }

    /**
     * Gives the pass in flight {@link #STOP_GRACE} to end, then interrupts it, with a line saying
     * so.
     */
    private void settlePassInFlight() {
      if (!passThread.busy()) {
        return;
      }
      Instant deadline = clock.instant().plus(STOP_GRACE);
      while (!passThread.finished() && clock.instant().isBefore(deadline)) {
        LockSupport.parkNanos(IDLE_PARK_NANOS);
      }
      if (!passThread.finished()) {
        out.println(
            Timestamps.format(clock.instant())
                + " watch stopping: the pass in flight ran "
                + STOP_GRACE.toSeconds()
                + " s past the stop; it is interrupted, and the next watch's pass redoes it");
        out.flush();
        passThread.interrupt();
      }
    }

    /**
     * Reads up to {@link #BATCH} excerpts, appraising and depositing each new event, until the
     * queue runs dry.
     */
    private Batch readBatch() throws IOException {
      int read = 0;
      while (read < BATCH && !stopping) {
        try (DocumentContext dc = tailer.readingDocument()) {
          if (!dc.isPresent()) {
            return new Batch(read, true);
          }
          long index = dc.index();
          read++;
          if (tail.excerpt(dc.wire().bytes(), index, position) && firstUncommitted == null) {
            firstUncommitted = clock.instant();
          }
          position = index;
        }
      }
      return new Batch(read, false);
    }

    /**
     * When the pass in flight has ended: deposits the derived events it found and tells the
     * triggers.
     */
    private void absorbEndedPass() throws IOException {
      if (passThread.finished()) {
        tail.absorb(passThread.await());
        triggers.passEnded(clock.instant());
        if (firstUncommitted == null && banks.hasUncommitted()) {
          firstUncommitted =
              clock.instant(); // what the pass left is committed within the batch wait too
        }
      }
    }

    /**
     * Commits the banks at the last excerpt read when the queue ran dry, a batch is full or the
     * oldest deposit has waited {@link #MAX_BATCH_WAIT}.
     */
    private void commitIfDue(boolean dry, Instant now) throws IOException {
      if (banks.hasUncommitted()
          && (dry
              || live.count() >= BATCH
              || Duration.between(firstUncommitted, now).compareTo(MAX_BATCH_WAIT) >= 0)) {
        banks.commit(position);
        live.committed();
        firstUncommitted = null;
      } else if (!banks.hasUncommitted() && live.waiting()) {
        live.committed(); // only events a pass had deposited: nothing to commit
      }
    }

    /**
     * Starts a pass when no pass is in flight and a trigger is due: commits and compacts the banks
     * first.
     *
     * @return whether a pass started
     */
    private boolean startDuePass(Instant now) throws IOException {
      Map<String, Trigger> due =
          passThread.busy()
              ? Map.of()
              : triggers.due(now, banks.layout().fleet(), tail.passAgents());
      if (due.isEmpty()) {
        return false;
      }
      // everything read so far is committed, old rows compacted: the pass reads the banks as they
      // are now
      banks.commitAndCompact(position, now.minus(retention));
      live.committed();
      firstUncommitted = null;
      passThread.start(
          due,
          triggers.passing(due.keySet(), banks.layout().fleet()),
          banks.layout(),
          tail.deposited());
      return true;
    }

    /**
     * Parks before the next read: briefly within the brisk spell after an event, longer when idle.
     */
    private void park(Instant now) {
      LockSupport.parkNanos(
          Duration.between(lastRead, now).compareTo(BRISK_SPELL) < 0
              ? BRISK_PARK_NANOS
              : IDLE_PARK_NANOS);
    }
  }
}
