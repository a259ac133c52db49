package dev.vigil.watch;

import dev.vigil.appraise.Appraiser;
import dev.vigil.emobank.EmoBank;
import dev.vigil.emobank.EmotionRow;
import dev.vigil.ingest.AgentName;
import dev.vigil.ingest.EventIdentity;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventWire;
import dev.vigil.observe.ExcerptEvents;
import dev.vigil.observe.Timestamps;
import dev.vigil.orchestrate.Depositor;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import net.openhft.chronicle.bytes.Bytes;

/**
 * What the tail does with each excerpt: appraises the event and deposits it into its agent's bank,
 * exactly once (by the excerpt's identity, as {@code run} does), counts it for the triggers and its
 * delay. The first event of a second agent turns the banks into a fleet's. Also deposits what a
 * finished pass left to the tail. Used by the tail's thread only.
 */
final class TailDeposits {
  private final LiveBanks banks;
  private final EventIdentity.OfQueue identities;
  private final Instant from;
  private final Depositor depositor;
  private final PassTriggers triggers;
  private final LiveDelays delays;
  private final Clock clock;
  private final PrintWriter out;
  private final Set<String> agents;
  private final ExcerptEvents events = new ExcerptEvents();
  private long deposited;
  private long skipped;

  /**
   * @param agents the agents of the window when {@code watch} started
   * @param from the start of that window: older events are passed over, as {@code run} would
   */
  TailDeposits(
      LiveBanks banks,
      String queueKey,
      Instant from,
      Set<String> agents,
      Depositor depositor,
      PassTriggers triggers,
      LiveDelays delays,
      Clock clock,
      PrintWriter out) {
    this.banks = banks;
    this.identities = new EventIdentity.OfQueue(queueKey);
    this.from = from;
    this.agents = new LinkedHashSet<>(agents);
    this.depositor = depositor;
    this.triggers = triggers;
    this.delays = delays;
    this.clock = clock;
    this.out = out;
  }

  /** Events deposited as they arrived. */
  long deposited() {
    return deposited;
  }

  /** Excerpts, or events of a batch, that were not events. */
  long skipped() {
    return skipped;
  }

  /**
   * The agents seen: the fleet's, or the one agent's name ({@link AgentName#UNNAMED} before any).
   */
  List<String> passAgents() {
    return agents.isEmpty() || !banks.layout().fleet() ? List.of(single()) : List.copyOf(agents);
  }

  private String single() {
    return agents.isEmpty() ? AgentName.UNNAMED : agents.iterator().next();
  }

  /**
   * Appraises and deposits the events of the excerpt at {@code index} ({@link ExcerptEvents}).
   *
   * @param previous the index of the excerpt read before (where a fleet's banks are committed when
   *     one forms; the events of a batch are one agent's, so one forms at a batch's first event)
   * @return whether something was deposited
   */
  boolean excerpt(Bytes<?> bytes, long index, long previous) throws IOException {
    boolean deposited = false;
    events.start(bytes);
    while (true) {
      try {
        if (!events.next()) {
          return deposited;
        }
      } catch (EventFormatException ex) {
        skipped++;
        continue; // the rest of the excerpt is not read
      }
      deposited |= oneEvent(events.event(), index, events.k(), previous);
    }
  }

  /** Appraises and deposits the event at place {@code k} of the excerpt at {@code index}. */
  private boolean oneEvent(Bytes<?> bytes, long index, int k, long previous) throws IOException {
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
      out.println(
          Timestamps.format(clock.instant())
              + " fleet: agent "
              + agent
              + " joined "
              + agents.iterator().next()
              + "; each agent now has its own bank and reports under agents/");
    }
    EmoBank bank = banks.bank(agent);
    long identity = identities.ofEvent(e, index, k);
    double durationMs = e.payload().path("duration_ms").asDouble(0);
    if (bank.isDeposited(identity)) {
      // deposited by the pass that just ended (it read ahead of the tail)
      delays.deposited(e.ts(), durationMs);
      return false;
    }
    if (Appraiser.isContext(e)) {
      return false; // conversation context: the passes' detectors read it, nothing is deposited
    }
    event(bank, agent, identity, depositor.row(e));
    delays.deposited(e.ts(), durationMs);
    return true;
  }

  /** Deposits an event of the queue into its agent's bank and counts it for the triggers. */
  private void event(EmoBank bank, String agent, long identity, EmotionRow row) throws IOException {
    bank.deposit(identity, row);
    banks.touched(agent);
    deposited++;
    triggers.deposited(agent, row);
  }

  /**
   * Deposits what a finished pass left to the tail (unless the layout changed meanwhile): events
   * the tail has not deposited yet (it counts them as it would have; when it reads them later they
   * are recognized), such as a new fleet agent's events from before the fleet formed, and the
   * derived events of the detectors.
   */
  void absorb(List<PassThread.Outcome> outcomes) throws IOException {
    for (PassThread.Outcome o : outcomes) {
      if (o.fleet() != banks.layout().fleet()) {
        continue; // the first agent's bank was left as it was when the fleet formed; its next pass
        // refills
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
          event(bank, o.agent(), d.identity(), d.row());
        }
      }
    }
  }
}
