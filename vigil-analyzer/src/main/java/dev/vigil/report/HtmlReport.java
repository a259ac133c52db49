package dev.vigil.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.diagnose.Alarm;
import dev.vigil.diagnose.Diagnosis;
import dev.vigil.diagnose.Finding;
import dev.vigil.diagnose.ThornCause;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.emobank.Decay;
import dev.vigil.emobank.Snapshot;
import dev.vigil.observe.Timestamps;
import dev.vigil.orchestrate.InternalThorn;
import dev.vigil.orchestrate.PassOptions;
import dev.vigil.orchestrate.PassResult;
import dev.vigil.orchestrate.Stage;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Builds {@code report.html} (docs/REPORT.md) from a pass's result: one self-contained page that
 * needs no network (inline CSS, charts drawn as SVG here, no script at all, and a content security
 * policy that forbids both). At a glance the alarm and the mood; then the emotion timeline,
 * roses/buds/thorns by cause, each detector with the events its evidence cites, the prompt patch
 * and each proposal's diff with its PR note. Lists are capped so that a pass over a large window
 * still writes a page of a few hundred kilobytes.
 */
final class HtmlReport {
  /** The template. */
  static final String TEMPLATE = "dev/vigil/report/report.peb";

  /** Causes listed per class (roses, buds, thorns). */
  static final int MAX_GROUPS = 100;

  /** Causes in the top-thorn card (all of them are in the thorns table). */
  static final int MAX_CARD_THORNS = 5;

  /** Characters of a detector's evidence object shown as JSON. */
  static final int MAX_EVIDENCE_CHARS = 20_000;

  /**
   * Findings of one class that share a cause and emotion.
   *
   * @param cause {@code kind:status}
   * @param emotion the emotion
   * @param count how many
   * @param intensity their decayed intensities summed, two decimals
   * @param last the newest one's time
   */
  record FindingGroup(String cause, String emotion, int count, String intensity, String last) {}

  /**
   * One detector as the page shows it.
   *
   * @param name its name
   * @param count instances found
   * @param summary its sentence, or empty
   * @param evidence its evidence object as JSON, cut at {@link #MAX_EVIDENCE_CHARS}
   * @param unit what refs count: {@code line} or {@code seq}
   * @param listing the events its evidence cites
   */
  record DetectorView(
      String name,
      int count,
      String summary,
      String evidence,
      String unit,
      EvidenceEvents.Listing listing) {
    /** Whether it found anything. */
    public boolean fired() {
      return count > 0;
    }
  }

  private HtmlReport() {}

  /** The page for a pass whose artifacts go to {@code out}. */
  static String of(PassResult r, Path out) {
    Map<String, Object> m = new HashMap<>();
    putPass(m, r);
    putAlarm(m, r.alarm());
    putState(m, r);
    putFindings(m, r);
    putAdaptation(m, r, out);
    return HtmlTemplates.render(TEMPLATE, m);
  }

  /** The page's header: title, agent, window, input, stage, figures and skipped stages. */
  private static void putPass(Map<String, Object> m, PassResult r) {
    PassOptions o = r.options();
    m.put(
        "title",
        "Vigil report"
            + (o.agent() == null ? "" : " for " + o.agent())
            + ", "
            + Timestamps.format(o.now()));
    m.put("agent", o.agent() == null ? "" : o.agent());
    m.put("now", Timestamps.format(o.now()));
    m.put("windowHours", fmt(o.window().toSeconds() / 3600.0));
    m.put("halfLifeHours", fmt(o.halfLife().toSeconds() / 3600.0));
    m.put("limit", o.limit());
    m.put("input", o.events() != null ? o.events() : String.valueOf(o.queue()));
    m.put("stage", r.stage());
    m.put("figures", figures(r));
    m.put("skipped", new LinkedHashMap<>(r.skipped()));
  }

  /** The alarm card: score, reasons and what the model saw. */
  private static void putAlarm(Map<String, Object> m, Alarm alarm) {
    m.put("alarm", alarm);
    m.put("score", fmt(alarm.score()));
    m.put(
        "reasons",
        alarm.reasons().stream()
            .map(
                x ->
                    Map.of(
                        "source",
                        x.source(),
                        "count",
                        x.count(),
                        "contribution",
                        fmt(x.contribution()),
                        "summary",
                        x.summary()))
            .toList());
    m.put("model", modelSaw(alarm));
  }

  /** The EmoBank's state: mood, levels, the top thorns and the emotion timeline. */
  private static void putState(Map<String, Object> m, PassResult r) {
    PassOptions o = r.options();
    Diagnosis d = r.diagnosis();
    Snapshot s = r.snapshot();
    m.put("mood", s.mood());
    m.put("dominant", s.dominantEmotions());
    m.put(
        "state",
        List.of(
            level("stress", s.stress()),
            level("energy", s.energy()),
            level("motivation", s.motivation()),
            level("focus", s.focus())));
    m.put("rows", s.rows());
    List<Map<String, Object>> top = new ArrayList<>();
    for (ThornCause t : d.topThorns()) {
      top.add(Map.of("cause", t.cause(), "intensity", fmt(t.intensity()), "thorns", t.thorns()));
    }
    m.put("topThorns", top);
    m.put(
        "nextThorns", top.subList(Math.min(1, top.size()), Math.min(MAX_CARD_THORNS, top.size())));
    m.put(
        "timeline",
        EmotionTimeline.of(
            r.bank().windowRows(),
            d.thorns(),
            new Decay(o.halfLife()),
            o.now().minus(o.window()),
            o.now()));
  }

  /** Roses, buds and thorns grouped by cause, with the prompt rules the diagnosis asks for. */
  private static void putFindings(Map<String, Object> m, PassResult r) {
    Diagnosis d = r.diagnosis();

    m.put(
        "counts",
        Map.of(
            "roses",
            d.roses().size(),
            "buds",
            d.buds().size(),
            "thorns",
            d.thorns().size(),
            "rows",
            d.rowsConsidered()));
    m.put("roses", groups(d.roses()));
    m.put("buds", groups(d.buds()));
    m.put("thorns", groups(d.thorns()));
    m.put("noRoses", d.noRoses() ? Diagnosis.NO_ROSES : "");
    m.put("provisional", d.provisional() ? String.valueOf(r.fallback()) : "");
    m.put("rules", d.promptRulesToAdd());
  }

  /**
   * The adaptation: detectors with their evidence, the prompt patch, code proposals, internal
   * thorns and the LLM's run.
   */
  private static void putAdaptation(Map<String, Object> m, PassResult r, Path out) {
    m.put("detectors", detectors(r));
    m.put("prompt", prompt(r, out));
    m.put("codeStatus", r.code().status().label());
    m.put("codeNotes", r.code().notes());
    m.put("proposals", r.code().proposals().stream().map(ProposalView::of).toList());
    m.put("internalThorns", r.internalThorns().stream().map(HtmlReport::thorn).toList());
    m.put(
        "resolvedThorns",
        r.resolvedThorns().stream().map(t -> t.type() + " at stage " + t.stage()).toList());
    m.put(
        "llm",
        r.llm() == null
            ? ""
            : "model "
                + r.llm().model()
                + ": "
                + r.llm().outcome()
                + (r.llm().reason() == null ? "" : " (" + r.llm().reason() + ")")
                + ", "
                + r.llm().calls().size()
                + " tool calls");
  }

  private static Map<String, Object> level(String name, double value) {
    return Map.of(
        "name",
        name,
        "value",
        fmt(value),
        "pct",
        Math.round(Math.max(0, Math.min(1, value)) * 100));
  }

  private static List<Map<String, Object>> figures(PassResult r) {
    Map<String, Object> f = new LinkedHashMap<>();
    f.put("events read", r.eventsRead());
    f.put("in the window", r.eventsInWindow());
    f.put("used", r.eventsUsed());
    f.put("deposited now", r.eventsDeposited());
    f.put("already deposited", r.alreadyDeposited());
    f.put("derived by detectors", r.derivedEvents());
    f.put("naive timestamps", r.naiveTimestamps());
    f.put("EmoBank rows appended", r.rowsAppended());
    List<Map<String, Object>> out = new ArrayList<>();
    f.forEach((k, v) -> out.add(Map.of("label", k, "value", v)));
    return out;
  }

  /** Findings grouped by cause and emotion, strongest first, at most {@link #MAX_GROUPS}. */
  static List<FindingGroup> groups(List<Finding> findings) {
    Map<String, List<Finding>> byCause = new LinkedHashMap<>();
    for (Finding f : findings) {
      byCause.computeIfAbsent(f.cause() + "\n" + f.emotion(), k -> new ArrayList<>()).add(f);
    }
    List<List<Finding>> lists = new ArrayList<>(byCause.values());
    lists.sort(
        Comparator.comparingDouble(
            (List<Finding> l) -> -l.stream().mapToDouble(Finding::intensity).sum()));
    List<FindingGroup> out = new ArrayList<>();
    for (List<Finding> l : lists.subList(0, Math.min(MAX_GROUPS, lists.size()))) {
      Finding last = l.stream().max(Comparator.comparing(Finding::ts)).orElseThrow();
      out.add(
          new FindingGroup(
              last.cause(),
              last.emotion(),
              l.size(),
              fmt(l.stream().mapToDouble(Finding::intensity).sum()),
              Timestamps.format(last.ts())));
    }
    return out;
  }

  private static List<DetectorView> detectors(PassResult r) {
    String unit = r.options().events() != null ? "line" : "seq";
    List<DetectorView> out = new ArrayList<>();
    for (Detection det : r.detections()) {
      out.add(
          new DetectorView(
              det.name(),
              det.count(),
              det.summary(),
              json(det.evidence()),
              unit,
              new EvidenceEvents(det.cited()).of(det.evidence())));
    }
    return out;
  }

  private static String json(JsonNode evidence) {
    try {
      String s = ReportJson.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsString(evidence);
      return s.length() <= MAX_EVIDENCE_CHARS
          ? s
          : s.substring(0, MAX_EVIDENCE_CHARS) + "\n… (cut; report.json holds it all)";
    } catch (JsonProcessingException e) {
      return "(evidence not readable: " + e.getOriginalMessage() + ")";
    }
  }

  private static PromptView prompt(PassResult r, Path out) {
    if (r.prompt() != null) {
      return PromptView.of(r.prompt(), out);
    }
    boolean failed =
        r.internalThorns().stream().anyMatch(t -> t.stage().equals(Stage.PROMPT_DONE.label()));
    return failed
        ? PromptView.absent("failed", "the prompt stage failed: see the self-repair section")
        : PromptView.absent("skipped", "no --prompt given");
  }

  private static String thorn(InternalThorn t) {
    return t.type()
        + " at stage "
        + t.stage()
        + " ("
        + t.step()
        + "): "
        + t.exception()
        + ": "
        + t.message()
        + " — "
        + t.suggestion();
  }

  static String fmt(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }

  /**
   * With a model: the worst session, the reasons with their turns and events, the next sessions;
   * else empty.
   */
  private static Map<String, Object> modelSaw(Alarm alarm) {
    if (alarm.rulesScore() == null || alarm.sessions().isEmpty()) {
      return Map.of();
    }
    List<Map<String, Object>> reasons = new ArrayList<>();
    for (Alarm.Reason x : alarm.reasons()) {
      reasons.add(
          Map.of(
              "source",
              x.source(),
              "summary",
              x.summary(),
              "refs",
              x.refs().isEmpty() ? "" : x.refs().toString()));
    }
    List<Map<String, Object>> next = new ArrayList<>();
    for (Alarm.SessionScore x : alarm.sessions().subList(1, alarm.sessions().size())) {
      next.add(Map.of("session", x.session(), "probability", fmt(x.probability())));
    }
    Alarm.SessionScore worst = alarm.sessions().get(0);
    return Map.of(
        "session",
        worst.session(),
        "probability",
        fmt(worst.probability()),
        "rules",
        fmt(alarm.rulesScore()),
        "reasons",
        reasons,
        "next",
        next);
  }
}
