package dev.vigil.watch;

import dev.vigil.appraise.Appraisal;
import dev.vigil.appraise.Appraiser;
import dev.vigil.diagnose.RbtThresholds;
import dev.vigil.emobank.EmoBank;
import dev.vigil.emobank.EmotionRow;
import dev.vigil.ingest.AgentName;
import dev.vigil.fleet.AgentScan;
import dev.vigil.fleet.FleetLayout;
import dev.vigil.ingest.EventIdentity;
import dev.vigil.ingest.QueueSource;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import dev.vigil.observe.Timestamps;
import dev.vigil.orchestrate.PassOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * The {@code watch} loop. One thread tails the queue from the position the banks committed, appraises each new
 * event and deposits it into its agent's EmoBank (exactly once: by the excerpt's identity, as {@code run} does),
 * commits in small batches, and runs a pass when a trigger fires and the backlog is read. A pass runs on a thread
 * of its own beside the tail, one at a time: it reads each bank as the tail last committed it and deposits nothing
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
  /** How long the loop parks when the queue has had nothing new for a while. */
  static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
  /**
   * How long it parks for the first {@link #BRISK_SPELL_NANOS} after an event: an agent making calls in a burst
   * sees its next event appraised a fraction of a millisecond sooner, and a quiet agent costs no more wake-ups.
   */
  static final long BRISK_PARK_NANOS = TimeUnit.MICROSECONDS.toNanos(100);
  static final long BRISK_SPELL_NANOS = TimeUnit.MILLISECONDS.toNanos(50);
  /** A backlog at least this long gets progress lines. */
  static final long PROGRESS_MIN_BACKLOG = 10_000;
  /** How often a progress line is printed while reading a backlog. */
  static final Duration PROGRESS_EVERY = Duration.ofSeconds(2);

  /**
   * What {@code watch} was asked to do.
   *
   * @param template    the {@code run} options every pass starts from (its {@code now} is replaced per pass)
   * @param every       {@code --every}, or null
   * @param afterEvents {@code --after-events}, or 0
   * @param onThorns    {@code --on-thorns}, or null
   */
  public record Settings(PassOptions template, Duration every, int afterEvents, ThornRate onThorns) {}

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
  private final Map<String, EventTriggers> triggers = new LinkedHashMap<>();
  private final Set<String> agents = new LinkedHashSet<>();
  private final List<long[]> uncommittedAppends = new ArrayList<>();
  private final Appraiser appraiser;
  private final RbtThresholds rbt;
  /** One agent's pass: what it left to deposit, under the layout it ran in. */
  private record PassOutcome(String agent, boolean fleet, List<EmoBank.PendingDeposit> deposits) {}

  private volatile boolean stopping;
  private Future<List<PassOutcome>> inFlight;
  private final ExecutorService passThread = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "vigil-pass");
    t.setDaemon(true);
    return t;
  });
  private volatile Thread loopThread;
  private long deposited;
  private long skipped;

  /**
   * @param runner runs each pass ({@link dev.vigil.orchestrate.ReflectivePass} in production)
   * @param clock  each pass's now, the {@code --every} schedule and the delay measurement
   * @param out    pass lines, progress, start and stop lines
   * @param err    what went wrong in a pass, one line each
   */
  public Watcher(Settings settings, PassRunner runner, Clock clock, PrintWriter out, PrintWriter err) {
    this.settings = settings;
    this.passes = new WatchPasses(settings.template(), runner, clock, out, err, delays);
    this.clock = clock;
    this.out = out;
    this.err = err;
    this.appraiser = settings.template().rules().appraisal().newAppraiser();
    this.rbt = settings.template().rules().rbt();
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
   * Runs until {@link #stop()}.
   *
   * @throws IllegalArgumentException naming the queue when it is missing or not a queue
   */
  public Totals run() throws IOException {
    loopThread = Thread.currentThread();
    PassOptions t = settings.template();
    QueueSource source = new QueueSource(t.queue()); // checks the directory, names the position's key
    String key = source.key();
    Instant started = clock.instant();
    long startedMicros = micros(started);
    Instant from = started.minus(t.window());
    agents.addAll(AgentScan.inQueue(t.queue(), from, null));
    FleetLayout layout = FleetLayout.of(t.emobank(), t.out(), agents);
    if (layout.fleet()) {
      Files.createDirectories(t.emobank().resolve(FleetLayout.AGENTS));
    }
    long position;
    try (LiveBanks banks = new LiveBanks(layout, key, t.window(), t.halfLife());
        ChronicleQueue queue = EventQueues.openForReading(t.queue())) {
      position = banks.resumePosition();
      ExcerptTailer tailer = queue.createTailer();
      if (position >= 0 && tailer.moveToIndex(position)) {
        tailer.readingDocument().close(); // read before the last stop
      } else if (position >= 0) {
        err.println("vigil watch: queue " + t.queue() + " no longer holds the position " + position
            + "; reading from its start (events deposited before are recognized and skipped)");
        tailer.toStart();
      }
      Progress progress = Progress.of(queue, position, clock.instant());
      out.println(Timestamps.format(started) + " watch started: queue " + t.queue() + ", " + schedule()
          + (layout.fleet() ? ", fleet of " + agents.size() + " agents" : "")
          + (position >= 0 ? ", resuming after excerpt " + Long.toHexString(position) : ", reading from the start")
          + (progress.backlog() > 0 ? ", backlog " + progress.backlog() + " excerpts" : ""));
      out.flush();
      EverySchedule every = settings.every() == null ? null : new EverySchedule(started, settings.every());
      Instant firstUncommitted = null;
      long lastRead = System.nanoTime() - BRISK_SPELL_NANOS;
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
            if (deposit(dc.wire().bytes(), index, position, key, from, startedMicros, banks)
                && firstUncommitted == null) {
              firstUncommitted = clock.instant();
            }
            position = index;
          }
        }
        if (inFlight != null && inFlight.isDone()) {
          absorb(banks);
          if (every != null) {
            every.passed(clock.instant());
          }
        }
        progress.read(read, dry, clock.instant(), out);
        if (read > 0) {
          lastRead = System.nanoTime();
        }
        Instant now = clock.instant();
        if (banks.hasUncommitted() && (dry || uncommittedAppends.size() >= BATCH
            || Duration.between(firstUncommitted, now).compareTo(MAX_BATCH_WAIT) >= 0)) {
          banks.commit(position);
          recordDelays(startedMicros);
          firstUncommitted = null;
        } else if (!banks.hasUncommitted() && !uncommittedAppends.isEmpty()) {
          recordDelays(startedMicros); // only events a pass had deposited: nothing to commit
        }
        if (!dry || stopping) {
          continue;
        }
        Map<String, Trigger> due = inFlight == null ? duePasses(every, now, banks.layout()) : Map.of();
        if (!due.isEmpty()) {
          // everything read so far is committed, old rows compacted: the pass reads the banks as they are now
          banks.commitAndCompact(position, now.minus(t.retention()));
          recordDelays(startedMicros);
          firstUncommitted = null;
          inFlight = submitPasses(due, banks.layout());
          continue;
        }
        LockSupport.parkNanos(System.nanoTime() - lastRead < BRISK_SPELL_NANOS ? BRISK_PARK_NANOS : IDLE_PARK_NANOS);
      }
      if (inFlight != null) {
        absorb(banks); // waits for the pass in flight
      }
      banks.commitAndClose(position, clock.instant());
      recordDelays(startedMicros);
    } finally {
      passThread.shutdownNow();
    }
    Totals totals = new Totals(deposited, passes.passes(), passes.failed(), position, delays.summary());
    out.println(Timestamps.format(clock.instant()) + " watch stopped: " + deposited + " events deposited live, "
        + passes.passes() + (passes.passes() == 1 ? " pass (" : " passes (") + passes.failed() + " failed), "
        + (skipped > 0 ? skipped + " excerpts skipped, " : "")
        + "read position " + (position >= 0 ? Long.toHexString(position) : "none") + " kept; "
        + totals.delay().line());
    out.flush();
    return totals;
  }

  private String schedule() {
    List<String> parts = new ArrayList<>();
    if (settings.every() != null) {
      parts.add("every " + settings.every());
    }
    if (settings.afterEvents() > 0) {
      parts.add("after " + settings.afterEvents() + " events");
    }
    if (settings.onThorns() != null) {
      parts.add("on " + settings.onThorns().count() + " thorns within " + settings.onThorns().within());
    }
    return parts.isEmpty() ? "no trigger (deposits only)" : "passes " + String.join(", ", parts);
  }

  /** Appraises and deposits one excerpt; returns whether something was deposited. */
  private boolean deposit(Bytes<?> bytes, long index, long previous, String key, Instant from, long startedMicros,
      LiveBanks banks) throws IOException {
    Event e;
    try {
      if (EventWire.peekTs(bytes).isBefore(from)) {
        return false; // older than the window when watch started: run would not use it either
      }
      e = EventWire.read(bytes);
    } catch (EventFormatException ex) {
      skipped++;
      return false;
    }
    String agent = AgentName.display(e.agent());
    if (agents.add(agent) && !banks.layout().fleet() && agents.size() > 1) {
      banks.switchToFleet(previous, clock.instant());
      out.println(Timestamps.format(clock.instant()) + " fleet: agent " + agent + " joined " + agents.iterator().next()
          + "; each agent now has its own bank and reports under agents/");
    }
    EmoBank bank = banks.bank(agent);
    long identity = EventIdentity.ofQueueIndex(key, index);
    long appended = micros(e.ts()) + Math.round(e.payload().path("duration_ms").asDouble(0) * 1000);
    if (bank.isDeposited(identity)) {
      if (appended >= startedMicros) {
        // appended while watch ran, deposited by the pass that just ended (it read ahead of the tail): measured
        // now, an upper bound of its delay
        uncommittedAppends.add(new long[] {appended});
      }
      return false;
    }
    if (Appraiser.isContext(e)) {
      return false; // conversation context: the passes' detectors read it, nothing is deposited
    }
    Appraisal a = appraiser.appraise(e);
    depositEvent(banks, bank, agent, identity,
        EmotionRow.of(e.ts(), a.emotion(), a.intensity(), a.valence(), a.cause()));
    if (appended >= startedMicros) {
      uncommittedAppends.add(new long[] {appended});
    }
    return true;
  }

  /** Deposits an event of the queue into its agent's bank and counts it for the triggers. */
  private void depositEvent(LiveBanks banks, EmoBank bank, String agent, long identity, EmotionRow row)
      throws IOException {
    bank.deposit(identity, row);
    banks.touched(agent);
    deposited++;
    boolean thorn = rbt.thornEmotions().contains(row.emotion()) && row.intensity() >= rbt.thornMinIntensity();
    triggers.computeIfAbsent(agent, x -> new EventTriggers(settings.afterEvents(), settings.onThorns()))
        .deposited(row.ts(), thorn);
  }

  private void recordDelays(long startedMicros) {
    long now = micros(clock.instant());
    for (long[] appended : uncommittedAppends) {
      delays.add(Math.max(0, now - appended[0]));
    }
    uncommittedAppends.clear();
  }

  /** The agents due a pass and why: every agent on the timer, else those whose event triggers fired. */
  private Map<String, Trigger> duePasses(EverySchedule every, Instant now, FleetLayout layout) {
    Map<String, Trigger> due = new LinkedHashMap<>();
    if (every != null && every.due(now)) {
      List<String> all = agents.isEmpty() || !layout.fleet() ? List.of(single()) : List.copyOf(agents);
      all.forEach(a -> due.put(a, Trigger.EVERY));
      return due;
    }
    triggers.forEach((agent, tr) -> {
      if (tr.pending() != null) {
        due.put(layout.fleet() ? agent : single(), tr.pending());
      }
    });
    return due;
  }

  private String single() {
    return agents.isEmpty() ? AgentName.UNNAMED : agents.iterator().next();
  }

  /**
   * Starts the due agents' passes on the pass thread. The trigger counters they cover are reset here, on the loop's
   * thread, which alone touches them.
   */
  private Future<List<PassOutcome>> submitPasses(Map<String, Trigger> due, FleetLayout layout) {
    Map<String, Long> events = new LinkedHashMap<>();
    for (String agent : due.keySet()) {
      // one agent: its pass covers every counter; a fleet: only the agent's own
      List<EventTriggers> covered = layout.fleet()
          ? (triggers.containsKey(agent) ? List.of(triggers.get(agent)) : List.of())
          : List.copyOf(triggers.values());
      events.put(agent, covered.stream().mapToLong(EventTriggers::eventsSincePass).sum());
      covered.forEach(EventTriggers::passed);
    }
    long depositedNow = deposited;
    return passThread.submit(() -> {
      List<PassOutcome> outcomes = new ArrayList<>();
      for (Map.Entry<String, Trigger> d : due.entrySet()) {
        String agent = d.getKey();
        outcomes.add(new PassOutcome(agent, layout.fleet(),
            passes.run(agent, d.getValue(), events.get(agent), layout, depositedNow)));
      }
      if (layout.fleet()) {
        passes.summarize(layout, depositedNow);
      }
      out.flush();
      err.flush();
      return outcomes;
    });
  }

  /**
   * Deposits what the finished passes left to the tail (unless the layout changed meanwhile): events the tail has
   * not deposited yet (it counts them as it would have; when it reads them later they are recognized), such as a
   * new fleet agent's events from before the fleet formed, and the derived events of the detectors.
   */
  private void absorb(LiveBanks banks) throws IOException {
    List<PassOutcome> outcomes = awaitPass();
    inFlight = null;
    for (PassOutcome o : outcomes) {
      if (o.fleet() != banks.layout().fleet()) {
        continue; // the first agent's bank was left as it was when the fleet formed; its next pass refills
      }
      EmoBank bank = banks.bank(o.agent());
      for (EmoBank.PendingDeposit d : o.deposits()) {
        if (bank.isDeposited(d.identity())) {
          continue;
        }
        if (d.derived()) {
          bank.deposit(d.identity(), d.row());
          banks.touched(o.agent());
        } else {
          depositEvent(banks, bank, o.agent(), d.identity(), d.row());
        }
      }
    }
  }

  private List<PassOutcome> awaitPass() {
    try {
      return inFlight.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return List.of();
    } catch (ExecutionException e) {
      // WatchPasses reports a failing pass itself; anything else escaping it is one line and no deposits
      err.println("vigil watch: pass failed: " + e.getCause());
      return List.of();
    }
  }

  private static long micros(Instant t) {
    return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000L), t.getNano() / 1_000);
  }
}
