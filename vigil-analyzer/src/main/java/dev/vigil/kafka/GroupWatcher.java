package dev.vigil.kafka;

import dev.vigil.io.Notice;
import dev.vigil.observe.Timestamps;
import dev.vigil.orchestrate.PassOptions;
import dev.vigil.watch.AlarmNotice;
import dev.vigil.watch.PassRunner;
import dev.vigil.watch.PassTriggers;
import dev.vigil.watch.ThornRate;
import dev.vigil.watch.Watcher;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.KafkaException;

/**
 * {@code watch --bootstrap} (docs/KAFKA.md): one instance of a consumer group that shares the
 * agents (the partitions of the events' topic) with the other instances. It waits for the events'
 * topic, creates the banks' journal and {@code vigil.reports} when missing, and runs {@link
 * GroupSession}s: when Kafka cannot be reached or a session fails (fenced after a rebalance it
 * missed), the session's uncommitted work is dropped, one line a minute says so, and a new session
 * joins again after a backoff. {@link #stop()} (from a signal) ends it after the transaction in
 * flight.
 */
public final class GroupWatcher {
  /**
   * What a group {@code watch} was asked to do.
   *
   * @param template the {@code run} options every pass starts from
   * @param bootstrap Kafka's bootstrap servers
   * @param topic the events' topic
   * @param group the consumer group
   * @param every {@code --every}, or null
   * @param afterEvents {@code --after-events}, or 0
   * @param onThorns {@code --on-thorns}, or null
   * @param onAlarm {@code --on-alarm}, or null
   */
  public record Settings(
      PassOptions template,
      String bootstrap,
      String topic,
      String group,
      Duration every,
      int afterEvents,
      ThornRate onThorns,
      String onAlarm) {}

  /** What this instance did so far. */
  static final class Counts {
    /** Read by {@code /metrics} from another thread. */
    final java.util.concurrent.atomic.AtomicLong deposited =
        new java.util.concurrent.atomic.AtomicLong();

    long skipped;
    long duplicates;
  }

  private final Settings s;
  private final PassRunner runner;
  private final Clock clock;
  private final PrintWriter out;
  private final PrintWriter err;
  private volatile boolean stopping;
  private volatile Counts live = new Counts();

  public GroupWatcher(
      Settings settings, PassRunner runner, Clock clock, PrintWriter out, PrintWriter err) {
    this.s = settings;
    this.runner = runner;
    this.clock = clock;
    this.out = out;
    this.err = err;
  }

  /** Events this instance deposited so far; read from any thread. */
  public long deposited() {
    return live.deposited.get();
  }

  /**
   * Asks the instance to stop after the transaction in flight; safe from any thread (a signal
   * handler).
   */
  public void stop() {
    stopping = true;
  }

  /** Runs until {@link #stop()}. */
  // banks.close() on an outage drops what Kafka did not commit; the banks reopen on the next
  // assignment
  @SuppressWarnings("try")
  public void run() throws IOException {
    Instant started = clock.instant();
    PassTriggers triggers =
        new PassTriggers(
            new Watcher.Settings(
                s.template(), s.every(), s.afterEvents(), s.onThorns(), s.onAlarm()),
            s.template().rules().rbt(),
            started);
    GroupPasses passes =
        new GroupPasses(s.template(), runner, new AlarmNotice(s.onAlarm()), out, err);
    OutageNotice outage = new OutageNotice("watch", s.bootstrap(), clock, err);
    Counts counts = new Counts();
    live = counts;
    Backoff backoff = new Backoff();
    Instant lastMissing = null;
    announceStarted(started, triggers);
    try (AgentBanks banks = new AgentBanks(s.template().out());
        Admin admin = Admin.create(KafkaClients.common(s.bootstrap(), "vigil-watch-admin"))) {
      while (!stopping) {
        try {
          GroupTopics.Shape shape = GroupTopics.shape(admin, s.topic());
          outage.reached();
          if (shape == null) {
            lastMissing = warnMissingTopic(lastMissing);
            pause(backoff.failed());
            continue;
          }
          GroupTopics.ensure(
              admin, BankJournal.topicFor(s.topic()), shape.partitions(), shape.replication());
          try (GroupSession session =
              new GroupSession(s, banks, triggers, passes, clock, out, counts)) {
            session.start();
            backoff.succeeded();
            while (!stopping) {
              session.turn();
            }
          }
        } catch (KafkaException | ExecutionException | TimeoutException | UncheckedIOException e) {
          banks.close(); // what was not committed in Kafka is dropped; the next assignment rebuilds
          // it
          outage.failed(
              e instanceof ExecutionException ? e.getCause() : e,
              "deposits resume from the last committed transaction");
          pause(backoff.failed());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          break;
        }
      }
    }
    announceStopped(counts, passes);
  }

  /** The first watch line: group, topic, bootstrap, triggers and where reports go. */
  private void announceStarted(Instant started, PassTriggers triggers) {
    out.println(
        Timestamps.format(started)
            + " watch started: group "
            + s.group()
            + " on topic "
            + s.topic()
            + " at "
            + s.bootstrap()
            + ", "
            + triggers.describe()
            + ", reports in "
            + s.template().out()
            + "/agents and topic "
            + GroupTopics.REPORTS);
    out.flush();
  }

  /**
   * Warns that the topic does not exist yet, at most once every {@link OutageNotice#EVERY}.
   *
   * @param lastMissing when it last warned, or null
   * @return when it last warned, now or before
   */
  private Instant warnMissingTopic(Instant lastMissing) {
    Instant now = clock.instant();
    if (lastMissing != null
        && Duration.between(lastMissing, now).compareTo(OutageNotice.EVERY) < 0) {
      return lastMissing;
    }
    err.println(
        Notice.line(
            now,
            "watch",
            Notice.Level.WARN,
            "topic "
                + s.topic()
                + " does not exist at "
                + s.bootstrap()
                + "; waiting for it (ship writes to it; create it with one partition per "
                + "instance you plan, or more)"));
    err.flush();
    return now;
  }

  /** The last watch line: events deposited, passes, records skipped and duplicates. */
  private void announceStopped(Counts counts, GroupPasses passes) {
    out.println(
        Timestamps.format(clock.instant())
            + " watch stopped: "
            + counts.deposited.get()
            + " events deposited, "
            + passes.passes()
            + " passes ("
            + passes.failed()
            + " failed), "
            + counts.skipped
            + " records skipped (not events), "
            + counts.duplicates
            + " duplicates recognized");
    out.flush();
  }

  /** Waits out a backoff, or until {@link #stop()}. */
  private void pause(Duration d) {
    long end = System.nanoTime() + d.toNanos();
    long left;
    while (!stopping && (left = end - System.nanoTime()) > 0) {
      LockSupport.parkNanos(Math.min(left, 50_000_000L));
    }
  }
}
