package dev.vigil.kafka;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.emobank.EmoBank;
import dev.vigil.io.AtomicWrite;
import dev.vigil.io.Notice;
import dev.vigil.observe.Timestamps;
import dev.vigil.orchestrate.PassOptions;
import dev.vigil.orchestrate.PassResult;
import dev.vigil.watch.AlarmNotice;
import dev.vigil.watch.PassRunner;
import dev.vigil.watch.Trigger;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * One agent's pass in a group {@code watch}: over the agent's events and bank as this instance
 * holds them (rebuilt from Kafka), written like {@code run}'s into {@code OUT/agents/<agent>/}, its
 * {@code report.json} completed with {@code events_deposited_total} and the Kafka figures; a pass
 * that throws is one line on stderr and the watch goes on.
 */
final class GroupPasses {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /**
   * What a pass left: its report (null when it failed) and the derived deposits for the journal.
   *
   * @param report {@code report.json} as written, or null
   * @param deposits the detectors' derived deposits
   */
  record Outcome(String report, List<EmoBank.PendingDeposit> deposits) {}

  private final PassOptions template;
  private final PassRunner runner;
  private final AlarmNotice alarm;
  private final PrintWriter out;
  private final PrintWriter err;
  private long passes;
  private long failed;

  GroupPasses(
      PassOptions template,
      PassRunner runner,
      AlarmNotice alarm,
      PrintWriter out,
      PrintWriter err) {
    this.template = template;
    this.runner = runner;
    this.alarm = alarm;
    this.out = out;
    this.err = err;
  }

  long passes() {
    return passes;
  }

  long failed() {
    return failed;
  }

  /** Runs the agent's pass at {@code at}; its bank must be committed locally. */
  Outcome run(
      AgentBanks.Agent a,
      AgentBanks banks,
      Trigger trigger,
      long newEvents,
      Instant at,
      long skipped) {
    Path outDir = banks.layout().out(a.name);
    PassOptions o = passOptions(a, banks, outDir, at);
    String head =
        Timestamps.format(at)
            + " pass trigger="
            + trigger.label()
            + " agent="
            + a.name
            + " partition="
            + a.partition
            + " events="
            + newEvents;
    passes++;
    try {
      PassResult r = runner.run(o);
      ObjectNode report = amendReport(outDir, a, trigger, skipped);
      out.println(
          head
              + " used="
              + r.eventsUsed()
              + " deposited_total="
              + a.eventsDeposited
              + " thorns="
              + r.diagnosis().thorns().size()
              + " alarm="
              + r.alarm().level()
              + String.format(Locale.ROOT, ":%.2f", r.alarm().score())
              + " stage="
              + r.stage());
      alarm.after(r.alarm(), a.name, at, outDir, err);
      out.flush();
      return new Outcome(MAPPER.writeValueAsString(report), r.pendingDeposits());
    } catch (Exception e) {
      failed++;
      out.println(head + " failed: " + e.getClass().getSimpleName());
      err.println(
          Notice.line(
              at,
              "watch",
              Notice.Level.WARN,
              "pass failed (agent " + a.name + "): " + e + "; watch goes on"));
      out.flush();
      err.flush();
      return new Outcome(null, List.of());
    }
  }

  /**
   * Adds the agent, its deposits and the Kafka figures to the {@code report.json} the pass wrote,
   * and rewrites it.
   *
   * @return the amended report
   */
  private static ObjectNode amendReport(
      Path outDir, AgentBanks.Agent a, Trigger trigger, long skipped) throws IOException {
    Path reportFile = outDir.resolve("report.json");
    ObjectNode report = (ObjectNode) MAPPER.readTree(reportFile.toFile());
    report.put("agent", a.name);
    report.put("events_deposited_total", a.eventsDeposited);
    ObjectNode kafka = report.putObject("kafka");
    kafka.put("partition", a.partition);
    kafka.put("trigger", trigger.label());
    kafka.put("records_skipped", skipped);
    String json = MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(report);
    AtomicWrite.replace(reportFile, json);
    return report;
  }

  /** The pass's options: the template's, over the agent's bank, events and output directory. */
  private PassOptions passOptions(AgentBanks.Agent a, AgentBanks banks, Path outDir, Instant at) {
    PassOptions t = template;
    return new PassOptions(
        a.events.toString(),
        null,
        banks.layout().bank(a.name),
        t.prompt(),
        t.repo(),
        outDir,
        at,
        t.window(),
        t.limit(),
        t.halfLife(),
        t.assumeZone(),
        t.rules(),
        t.retention(),
        t.detectors(),
        t.codeSettings(),
        a.name,
        true);
  }
}
