package dev.vigil.watch;

import dev.vigil.fleet.AgentScan;
import dev.vigil.fleet.FleetLayout;
import dev.vigil.ingest.QueueSource;
import dev.vigil.io.Notice;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.Timestamps;
import dev.vigil.orchestrate.Depositor;
import dev.vigil.orchestrate.PassOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
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
 * The {@code watch} loop. One thread tails the queue from the position the banks committed, appraises each new
 * event and deposits it into its agent's EmoBank ({@link TailDeposits}), commits in small batches, and runs a pass
 * when a trigger fires ({@link PassTriggers}) and the backlog is read. A pass runs on a thread of its own beside the
 * tail, one at a time ({@link PassThread}): it reads each bank as the tail last committed it and deposits nothing
 * itself, so the tail stays each bank's one writer and events that arrive during a pass are appraised and committed
 * as they come; the derived events a pass finds are deposited by the tail when the pass ends. Rows older than the
 * retention are compacted by the tail before a pass. {@link #stop()} (from a signal) ends the loop after the pass
 * in flight; the banks are then committed at the last excerpt read, where the next {@code watch} resumes.
 */
public final class Watcher {
  /** Deposits committed at once at most, while reading a backlog. */
  static final int BATCH = 1_000;
  /** The longest a deposit waits for its batch's commit. */
  static final Duration MAX_BATCH_WAIT = Duration.ofMillis(100);
  /**
   * How long the loop parks when the queue has had nothing new for a while. Parking is the pause between two reads
   * of the queue, not a time the loop waits for: nothing is decided by it, so it is the one use of real time here.
   */
  static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
  /**
   * How long it parks for the first {@link #BRISK_SPELL} after an event (on the clock): an agent making calls in a
   * burst sees its next event appraised a fraction of a millisecond sooner, and a quiet agent costs no more wake-ups.
   */
  static final long BRISK_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
  static final Duration BRISK_SPELL = Duration.ofMillis(50);

  /**
   * What {@code watch} was asked to do.
   *
   * @param template    the {@code run} options every pass starts from (its {@code now} is replaced per pass)
   * @param every       {@code --every}, or null
   * @param afterEvents {@code --after-events}, or 0
   * @param onThorns    {@code --on-thorns}, or null
   * @param onAlarm     {@code --on-alarm}: {@code watch} or {@code alarm}, or null
   */
  public record Settings(PassOptions template, Duration every, int afterEvents, ThornRate onThorns, String onAlarm) {
    /** Settings without {@code --on-alarm}. */
    public Settings(PassOptions template, Duration every, int afterEvents, ThornRate onThorns) {
      this(template, every, afterEvents, onThorns, null);
    }
  }

  /**
   * What a {@code watch} did, reported when it stops.
   *
   * @param deposited events deposited as they arrived
   * @param passes    passes run
   * @param failed    of those, passes that failed
   * @param position  the index of the last excerpt read, kept for the next {@code watch}
   * @param delay     the append-to-appraisal delay
   */
  public record Totals(long deposited, long passes, long failed, long position, DelayStats.Summary delay) {}

  private final Settings settings;
  private final WatchPasses passes;
  private final Clock clock;
  private final PrintWriter out;
  private final PrintWriter err;
  private final DelayStats delays = new DelayStats();
  private volatile boolean stopping;
  private volatile Thread loopThread;

  /**
   * @param runner runs each pass ({@link dev.vigil.api.Analyzer#run(PassOptions)} in production)
   * @param clock  the one time source: each pass's now, the {@code --every} schedule, the batches' commit wait, the
   *               brisk spell after an event and the delay measurement
   * @param out    pass lines, progress, start and stop lines
   * @param err    what went wrong in a pass, one line each
   */
  public Watcher(Settings settings, PassRunner runner, Clock clock, PrintWriter out, PrintWriter err) {
    this.settings = settings;
    this.passes = new WatchPasses(settings.template(), runner, clock, out, err, delays,
        new AlarmNotice(settings.onAlarm()));
    this.clock = clock;
    this.out = out;
    this.err = err;
  }

  /** Asks the loop to stop after the pass in flight; safe from any thread (a signal handler). */
  public void stop() {
    stopping = true;
    Thread t = loopThread;
    if (t != null) {
      LockSupport.unpark(t);
    }
  }

  /** The append-to-appraisal delay so far. */
  public DelayStats.Summary delay() {
    return delays.summary();
  }

  /**
   * Runs until {@link #stop()}. A queue the agent has not created yet is waited for ({@link QueueArrival}).
   *
   * @throws IllegalArgumentException naming the queue when it can never be one (a file, unreadable)
   */
  public Totals run() throws IOException {
    loopThread = Thread.currentThread();
    PassOptions t = settings.template();
    if (!QueueArrival.await(t.queue(), () -> stopping, clock, out)) {
      out.println(Timestamps.format(clock.instant()) + " watch stopped: the queue " + t.queue()
          + " was never created; nothing read");
      out.flush();
      return new Totals(0, 0, 0, -1, delays.summary());
    }
    QueueSource source = new QueueSource(t.queue()); // checks the directory, names the position's key
    Instant started = clock.instant();
    Instant from = started.minus(t.window());
    Set<String> agents = AgentScan.inQueue(t.queue(), from, null);
    FleetLayout layout = FleetLayout.of(t.emobank(), t.out(), agents);
    if (layout.fleet()) {
      Files.createDirectories(t.emobank().resolve(FleetLayout.AGENTS));
    }
    PassTriggers triggers = new PassTriggers(settings, t.rules().rbt(), started);
    LiveDelays live = new LiveDelays(delays, clock, started);
    long position;
    TailDeposits tail;
    try (LiveBanks banks = new LiveBanks(layout, source.key(), t.window(), t.halfLife());
        ChronicleQueue queue = EventQueues.openForReading(t.queue());
        PassThread passThread = new PassThread(passes, clock, out, err)) {
      tail = new TailDeposits(banks, source.key(), from, agents, new Depositor(t.rules()), triggers,
          live, clock, out);
      position = banks.resumePosition();
      ExcerptTailer tailer = queue.createTailer();
      if (position >= 0 && tailer.moveToIndex(position)) {
        tailer.readingDocument().close(); // read before the last stop
      } else if (position >= 0) {
        err.println(Notice.line(clock.instant(), "watch", Notice.Level.WARN, "queue " + t.queue()
            + " no longer holds the position " + position
            + "; reading from its start (events deposited before are recognized and skipped)"));
        tailer.toStart();
      }
      Progress progress = Progress.of(queue, position, clock.instant());
      out.println(Timestamps.format(started) + " watch started: queue " + t.queue() + ", " + triggers.describe()
          + (layout.fleet() ? ", fleet of " + agents.size() + " agents" : "")
          + (position >= 0 ? ", resuming after excerpt " + Long.toHexString(position) : ", reading from the start")
          + (progress.backlog() > 0 ? ", backlog " + progress.backlog() + " excerpts" : ""));
      out.flush();
      Instant firstUncommitted = null;
      Instant lastRead = started.minus(BRISK_SPELL);
      while (!stopping) {
        int read = 0;
        boolean dry = false;
        while (read < BATCH && !stopping) {
          try (DocumentContext dc = tailer.readingDocument()) {
            if (!dc.isPresent()) {
              dry = true;
              break;
            }
            long index = dc.index();
            read++;
            if (tail.excerpt(dc.wire().bytes(), index, position) && firstUncommitted == null) {
              firstUncommitted = clock.instant();
            }
            position = index;
          }
        }
        if (passThread.finished()) {
          tail.absorb(passThread.await());
          triggers.passEnded(clock.instant());
          if (firstUncommitted == null && banks.hasUncommitted()) {
            firstUncommitted = clock.instant(); // what the pass left is committed within the batch wait too
          }
        }
        Instant now = clock.instant();
        progress.read(read, dry, now, out);
        if (read > 0) {
          lastRead = now;
        }
        if (banks.hasUncommitted() && (dry || live.count() >= BATCH
            || Duration.between(firstUncommitted, now).compareTo(MAX_BATCH_WAIT) >= 0)) {
          banks.commit(position);
          live.committed();
          firstUncommitted = null;
        } else if (!banks.hasUncommitted() && live.waiting()) {
          live.committed(); // only events a pass had deposited: nothing to commit
        }
        if (!dry || stopping) {
          continue;
        }
        Map<String, Trigger> due = passThread.busy() ? Map.of()
            : triggers.due(now, banks.layout().fleet(), tail.passAgents());
        if (!due.isEmpty()) {
          // everything read so far is committed, old rows compacted: the pass reads the banks as they are now
          banks.commitAndCompact(position, now.minus(t.retention()));
          live.committed();
          firstUncommitted = null;
          passThread.start(due, triggers.passing(due.keySet(), banks.layout().fleet()), banks.layout(),
              tail.deposited());
          continue;
        }
        LockSupport.parkNanos(Duration.between(lastRead, now).compareTo(BRISK_SPELL) < 0 ? BRISK_PARK_NANOS
            : IDLE_PARK_NANOS);
      }
      tail.absorb(passThread.await()); // waits for the pass in flight
      banks.commitAndClose(position, clock.instant());
      live.committed();
    }
    Totals totals = new Totals(tail.deposited(), passes.passes(), passes.failed(), position, delays.summary());
    out.println(Timestamps.format(clock.instant()) + " watch stopped: " + tail.deposited() + " events deposited live, "
        + passes.passes() + (passes.passes() == 1 ? " pass (" : " passes (") + passes.failed() + " failed), "
        + (tail.skipped() > 0 ? tail.skipped() + " excerpts skipped, " : "")
        + "read position " + (position >= 0 ? Long.toHexString(position) : "none") + " kept; "
        + totals.delay().line());
    out.flush();
    return totals;
  }
}
