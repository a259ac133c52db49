package dev.vigil.watch;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.diagnose.ThornCause;
import dev.vigil.emobank.EmoBank;
import dev.vigil.fleet.FleetLayout;
import dev.vigil.fleet.FleetSummary;
import dev.vigil.io.Notice;
import dev.vigil.observe.Timestamps;
import dev.vigil.orchestrate.PassOptions;
import dev.vigil.orchestrate.PassResult;
import dev.vigil.report.PassProblems;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * Runs {@code watch}'s passes: one agent's pass through the {@link PassRunner}, its artifacts
 * written like {@code run}'s and kept ({@link PassArchive}), {@code pass.json} and {@code
 * watch.json} with the trigger, the alarm, the mood and the delay figures, {@code index.html}
 * listing the kept passes ({@link PassIndex}), one line on stdout; a pass that throws is one line
 * on stderr and {@code watch} goes on. After the passes of a fleet, the fleet summary.
 */
final class WatchPasses {
  /** The last pass's trigger, time and figures, in the agent's report directory. */
  static final String WATCH_JSON = "watch.json";

  /** The same, in each kept pass's directory. */
  static final String PASS_JSON = "pass.json";

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final PassOptions template;
  private final PassRunner runner;
  private final Clock clock;
  private final PrintWriter out;
  private final PrintWriter err;
  private final DelayStats delays;
  private final AlarmNotice alarmNotice;
  private volatile long passes;
  private volatile long failed;

  WatchPasses(
      PassOptions template,
      PassRunner runner,
      Clock clock,
      PrintWriter out,
      PrintWriter err,
      DelayStats delays,
      AlarmNotice alarmNotice) {
    this.alarmNotice = alarmNotice;
    this.template = template;
    this.runner = runner;
    this.clock = clock;
    this.out = out;
    this.err = err;
    this.delays = delays;
  }

  long passes() {
    return passes;
  }

  long failed() {
    return failed;
  }

  /**
   * Runs one agent's pass now, over the bank as the tail last committed it.
   *
   * @param events new events since the agent's last pass
   * @param depositedLive events {@code watch} has deposited so far, for the figures
   * @return the derived deposits the pass left to the tail (none when it failed)
   */
  // passes and failed are written on PassThread's one thread only; volatile so that other threads
  // read them fresh
  @SuppressWarnings("NonAtomicVolatileUpdate")
  List<EmoBank.PendingDeposit> run(
      String agent, Trigger trigger, long events, FleetLayout layout, long depositedLive) {
    Instant at = clock.instant();
    PassOptions o =
        template
            .at(at)
            .forAgent(layout.fleet() ? agent : null, layout.bank(agent), layout.out(agent))
            .withLiveBank();
    String head =
        Timestamps.format(at)
            + " pass trigger="
            + trigger.label()
            + (layout.fleet() ? " agent=" + agent : "")
            + " events="
            + events;
    passes++;
    try {
      PassResult r = runner.run(o); // writes the pass's artifacts, as run does
      Path kept = PassArchive.keep(o.out(), at, r.prompt() != null && !r.prompt().isRefused());
      ObjectNode pass = passJson(r, trigger, at, agent, events, depositedLive);
      byte[] json = MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(pass);
      Files.write(kept.resolve(PASS_JSON), json);
      Files.write(o.out().resolve(WATCH_JSON), json);
      index(o.out(), layout.fleet() ? agent : null);
      if (layout.fleet()) {
        FleetSummary.recordPass(o.out(), agent, at, null);
      }
      out.println(head + passLine(r));
      PassProblems.print(r, at, "watch", "agent " + agent + ": ", err);
      alarmNotice.after(r.alarm(), agent, at, o.out(), err);
      out.flush();
      err.flush();
      return r.pendingDeposits();
    } catch (Exception e) {
      if (cancelled(e)) {
        out.println(head + " cancelled: watch is stopping");
        out.flush();
        return List.of();
      }
      failed++;
      out.println(head + " failed: " + e.getClass().getSimpleName());
      err.println(
          Notice.line(
              clock.instant(),
              "watch",
              Notice.Level.WARN,
              "pass failed (trigger "
                  + trigger.label()
                  + ", agent "
                  + agent
                  + "): "
                  + e
                  + "; watch goes on, the next trigger runs the next pass"));
      out.flush();
      err.flush();
      return List.of();
    }
  }

  /**
   * Whether a pass ended because {@code watch} interrupted it while stopping ({@link
   * PassThread#interrupt}), rather than by failing.
   */
  private static boolean cancelled(Throwable e) {
    for (Throwable c = e; c != null; c = c.getCause()) {
      if (c instanceof java.util.concurrent.CancellationException
          || c instanceof java.nio.channels.ClosedByInterruptException
          || c instanceof InterruptedException) {
        return true;
      }
    }
    return Thread.currentThread().isInterrupted();
  }

  /** The pass's {@code pass.json}: the live figures, the trigger, the alarm and the top thorn. */
  private ObjectNode passJson(
      PassResult r, Trigger trigger, Instant at, String agent, long events, long depositedLive) {
    ObjectNode pass = figures(depositedLive);
    pass.put("trigger", trigger.label());
    pass.put("pass_at", Timestamps.format(at));
    pass.put("agent", agent);
    pass.put("events", events);
    pass.put("degraded", r.degraded());
    pass.set(
        "alarm",
        MAPPER.createObjectNode().put("score", r.alarm().score()).put("level", r.alarm().level()));
    pass.put("mood", r.snapshot().mood());
    pass.put("thorns", r.diagnosis().thorns().size());
    List<ThornCause> topThorns = r.diagnosis().topThorns();
    pass.put("top_thorn", topThorns.isEmpty() ? "" : topThorns.get(0).cause());
    return pass;
  }

  /** The rest of the pass's line after its head: what it used and found, the stage and delays. */
  private String passLine(PassResult r) {
    List<ThornCause> top = r.diagnosis().topThorns();
    return " used="
        + r.eventsUsed()
        + " roses="
        + r.diagnosis().roses().size()
        + " buds="
        + r.diagnosis().buds().size()
        + " thorns="
        + r.diagnosis().thorns().size()
        + " top_thorn="
        + (top.isEmpty() ? "none" : top.get(0).cause())
        + " alarm="
        + r.alarm().level()
        + String.format(java.util.Locale.ROOT, ":%.2f", r.alarm().score())
        + " stage="
        + r.stage()
        + (r.degraded() ? " degraded internal_thorns=" + r.internalThorns().size() : "")
        + " "
        + delays.summary().line();
  }

  /**
   * Rewrites the agent's {@code index.html}; a failure to write it is one line on stderr, the pass
   * stands.
   */
  private void index(Path agentOut, String agent) {
    try {
      PassIndex.write(agentOut, agent);
    } catch (IOException | RuntimeException e) {
      err.println(
          Notice.line(
              clock.instant(),
              "watch",
              Notice.Level.WARN,
              agentOut.resolve(PassIndex.INDEX_HTML) + " not written: " + e));
    }
  }

  /**
   * Rewrites the fleet summary after a fleet's passes; a failure to write it is one line on stderr.
   */
  void summarize(FleetLayout layout, long depositedLive) {
    ObjectNode extra = MAPPER.createObjectNode();
    extra.set("watch", figures(depositedLive));
    try {
      FleetSummary.write(layout.out(), clock.instant(), extra);
    } catch (IOException | RuntimeException e) {
      err.println(
          Notice.line(
              clock.instant(), "watch", Notice.Level.WARN, "fleet summary not written: " + e));
    }
  }

  /** The delay figures and the counts so far. */
  private ObjectNode figures(long depositedLive) {
    ObjectNode n = MAPPER.createObjectNode();
    DelayStats.Summary d = delays.summary();
    ObjectNode delay = n.putObject("append_to_appraisal");
    delay.put("events", d.events());
    if (d.events() > 0) {
      delay.put("median_ms", round(d.medianMs()));
      delay.put("p99_ms", round(d.p99Ms()));
      delay.put("max_ms", round(d.maxMs()));
    }
    n.put("events_deposited_live", depositedLive);
    n.put("passes", passes);
    n.put("failed_passes", failed);
    return n;
  }

  private static double round(double ms) {
    return Double.parseDouble(String.format(Locale.ROOT, "%.3f", ms));
  }
}
