package dev.vigil.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.diagnose.Diagnosis;
import dev.vigil.diagnose.Finding;
import dev.vigil.diagnose.ThornCause;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.observe.Timestamps;
import dev.vigil.orchestrate.PassOptions;
import dev.vigil.orchestrate.PassResult;
import dev.vigil.orchestrate.Stage;
import java.util.List;

/** Builds {@code report.json} (docs/DESIGN.md#artifacts) from a pass's result. */
final class ReportJson {
  static final ObjectMapper MAPPER = new ObjectMapper();

  private ReportJson() {}

  /** The whole report. */
  public static ObjectNode of(PassResult r) {
    PassOptions o = r.options();
    ObjectNode root = MAPPER.createObjectNode();
    putOptions(root, o);
    putCounts(root, r);
    root.put("stage", r.stage());
    root.set("snapshot", r.snapshot().toJson());
    root.set("rbt", rbt(r.diagnosis()));
    root.put("derived_events", r.derivedEvents());
    root.put("derived_events_deposited", r.derivedDeposited());
    putDetectors(root.putArray("detectors"), r.detections(), o.events() != null ? "line" : "seq");
    root.set("alarm", r.alarm().toJson());
    putInternalThorns(root, r);
    if (r.fallback() != null) {
      root.put("fallback", r.fallback());
    }
    if (r.llm() != null) {
      root.set("llm", r.llm().toJson());
    }
    putPrompt(root, r);
    root.set("proposals", r.code().proposalsJson());
    ObjectNode code = r.code().toJson();
    if (o.repo() != null) {
      code.put("repo", o.repo().toString());
    }
    root.set("code", code);
    return root;
  }

  /** What the pass was asked: now, window, limit, half-life, zone, rules and its input. */
  private static void putOptions(ObjectNode root, PassOptions o) {
    root.put("now", Timestamps.format(o.now()));
    root.put("window_hours", o.window().toSeconds() / 3600.0);
    root.put("limit", o.limit());
    root.put("half_life_hours", o.halfLife().toSeconds() / 3600.0);
    root.put("assume_zone", o.assumeZone().getId());
    root.put("rules", o.rules().source());
    ObjectNode input = root.putObject("input");
    if (o.events() != null) {
      input.put("events", o.events());
    } else {
      input.put("queue", o.queue().toString());
    }
    input.put("emobank", o.emobank().toString());
  }

  /**
   * The events read, used and deposited, the rows appended, and what was skipped or ignored on the
   * way.
   */
  private static void putCounts(ObjectNode root, PassResult r) {
    root.put("events_read", r.eventsRead());
    root.put("events_in_window", r.eventsInWindow());
    root.put("events_used", r.eventsUsed());
    root.put("events_out_of_order", r.bank().sweep().outOfOrder());
    root.put("events_deposited", r.eventsDeposited());
    root.put("events_already_deposited", r.alreadyDeposited());
    root.put("rows_appended", r.rowsAppended());
    root.put("naive_timestamps", r.naiveTimestamps());
    ObjectNode skipped = root.putObject("skipped");
    r.skipped().forEach(skipped::put);
    root.putObject("appraisal").put("ignored_delayed_by_sec", r.badDelayValues());
  }

  /**
   * Each detector's count, evidence and summary.
   *
   * @param evidenceUnit what the evidence's references count: {@code line} of an events file or
   *     {@code seq}
   */
  private static void putDetectors(
      ArrayNode detectors, List<Detection> detections, String evidenceUnit) {
    for (Detection d : detections) {
      ObjectNode n =
          detectors
              .addObject()
              .put("name", d.name())
              .put("count", d.count())
              .put("evidence_unit", evidenceUnit);
      n.set("evidence", d.evidence());
      if (!d.summary().isEmpty()) {
        n.put("summary", d.summary());
      }
    }
  }

  /** The pass's internal thorns and those resolved since the last pass. */
  private static void putInternalThorns(ObjectNode root, PassResult r) {
    ArrayNode thorns = root.putArray("internal_thorns");
    r.internalThorns().forEach(t -> thorns.add(t.toJson()));
    ArrayNode resolved = root.putArray("internal_thorns_resolved");
    r.resolvedThorns()
        .forEach(
            t ->
                resolved
                    .addObject()
                    .put("type", t.type())
                    .put("stage", t.stage())
                    .put("message", t.message()));
  }

  /**
   * The prompt stage's outcome, or why there is none: it failed, or no {@code --prompt} was given.
   */
  private static void putPrompt(ObjectNode root, PassResult r) {
    if (r.prompt() != null) {
      root.set("prompt", r.prompt().toJson());
    } else if (failed(r, Stage.PROMPT_DONE)) {
      root.putObject("prompt")
          .put("status", "failed")
          .put("note", "the prompt stage failed: see internal_thorns");
    } else {
      root.putObject("prompt").put("status", "skipped").put("note", "no --prompt given");
    }
  }

  private static boolean failed(PassResult r, Stage stage) {
    return r.internalThorns().stream().anyMatch(t -> t.stage().equals(stage.label()));
  }

  static ObjectNode rbt(Diagnosis d) {
    ObjectNode n = MAPPER.createObjectNode();
    n.set("roses", findings(d.roses()));
    n.set("buds", findings(d.buds()));
    n.set("thorns", findings(d.thorns()));
    ObjectNode counts = n.putObject("counts");
    counts.put("roses", d.roses().size());
    counts.put("buds", d.buds().size());
    counts.put("thorns", d.thorns().size());
    counts.put("rows_considered", d.rowsConsidered());
    ArrayNode top = n.putArray("top_thorns");
    for (ThornCause t : d.topThorns()) {
      top.addObject()
          .put("cause", t.cause())
          .put("intensity", t.intensity())
          .put("thorns", t.thorns());
    }
    ArrayNode rules = n.putArray("prompt_rules_to_add");
    d.promptRulesToAdd().forEach(rules::add);
    if (d.noRoses()) {
      n.put("no_roses", Diagnosis.NO_ROSES);
    }
    n.put("provisional", d.provisional());
    return n;
  }

  private static ArrayNode findings(List<Finding> findings) {
    ArrayNode a = MAPPER.createArrayNode();
    for (Finding f : findings) {
      a.addObject()
          .put("ts", Timestamps.format(f.ts()))
          .put("emotion", f.emotion())
          .put("intensity", f.intensity())
          .put("valence", f.valence())
          .put("cause", f.cause());
    }
    return a;
  }
}
