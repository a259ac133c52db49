package dev.vigil.report;

import dev.vigil.diagnose.Alarm;
import dev.vigil.diagnose.Diagnosis;
import dev.vigil.diagnose.ThornCause;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.emobank.Snapshot;
import dev.vigil.observe.Timestamps;
import dev.vigil.orchestrate.InternalThorn;
import dev.vigil.orchestrate.PassResult;
import java.util.Locale;

/**
 * Builds {@code report.md}, the pass's report for people, and the short summary printed on stdout.
 */
public final class ReportMarkdown {
  private ReportMarkdown() {}

  /** The whole report. */
  public static String of(PassResult r) {
    return header(r)
        + selfRepair(r)
        + alarm(r.alarm())
        + modelSaw(r.alarm())
        + llm(r)
        + detectors(r)
        + affectiveState(r.snapshot())
        + rosesBudsThorns(r)
        + promptRules(r.diagnosis());
  }

  /**
   * The title and the pass's inputs: now, window, the events read and deposited, skipped input,
   * naive timestamps.
   */
  private static String header(PassResult r) {
    StringBuilder md = new StringBuilder();
    md.append("# Vigil reflective pass\n\n");
    md.append("- now: ").append(Timestamps.format(r.options().now())).append('\n');
    md.append("- window: ")
        .append(fmt(r.options().window().toSeconds() / 3600.0))
        .append(" h, limit ")
        .append(r.options().limit())
        .append(", half-life ")
        .append(fmt(r.options().halfLife().toSeconds() / 3600.0))
        .append(" h\n");
    md.append("- events: ")
        .append(r.eventsRead())
        .append(" read, ")
        .append(r.eventsInWindow())
        .append(" in the window, ")
        .append(r.eventsUsed())
        .append(" used, ")
        .append(r.eventsDeposited())
        .append(" deposited (")
        .append(r.alreadyDeposited())
        .append(" already deposited)\n");
    if (!r.skipped().isEmpty()) {
      md.append("- skipped input: ").append(r.skipped()).append('\n');
    }
    if (r.naiveTimestamps() > 0) {
      md.append("- naive timestamps read in ")
          .append(r.options().assumeZone().getId())
          .append(": ")
          .append(r.naiveTimestamps())
          .append('\n');
    }
    return md.toString();
  }

  /** The alarm section: level, score and the reasons' table. */
  private static String alarm(Alarm alarm) {
    StringBuilder md = new StringBuilder();
    md.append("\n## Alarm\n\n")
        .append("**")
        .append(alarm.level())
        .append("**, score ")
        .append(fmt(alarm.score()))
        .append(".\n");
    if (!alarm.reasons().isEmpty()) {
      md.append("\n| reason | count | contribution | summary |\n| --- | ---: | ---: | --- |\n");
      for (Alarm.Reason reason : alarm.reasons()) {
        md.append("| ")
            .append(reason.source())
            .append(" | ")
            .append(reason.count())
            .append(" | ")
            .append(fmt(reason.contribution()))
            .append(" | ")
            .append(reason.summary())
            .append(" |\n");
      }
    }
    return md.toString();
  }

  /** The LLM section when the pass ran with a model: its outcome and tool calls; otherwise "". */
  private static String llm(PassResult r) {
    if (r.llm() == null) {
      return "";
    }
    return "\n## LLM\n\n"
        + "Model `"
        + r.llm().model()
        + "`: "
        + r.llm().outcome()
        + (r.llm().reason() == null ? "" : " (" + r.llm().reason() + ")")
        + ", "
        + r.llm().calls().size()
        + " tool calls.\n";
  }

  /** The detectors section: what each detector found, or that none ran. */
  private static String detectors(PassResult r) {
    StringBuilder md = new StringBuilder("\n## Detectors\n\n");
    if (r.detections().isEmpty()) {
      md.append("None ran (--detectors none).\n");
    } else {
      md.append("| detector | found | evidence |\n| --- | ---: | --- |\n");
      for (Detection det : r.detections()) {
        md.append("| ")
            .append(det.name())
            .append(" | ")
            .append(det.count())
            .append(" | ")
            .append(det.summary())
            .append(" |\n");
      }
    }
    return md.toString();
  }

  /**
   * The affective state section: the EmoBank snapshot's mood, dominant emotions and four
   * dimensions.
   */
  private static String affectiveState(Snapshot s) {
    StringBuilder md = new StringBuilder("\n## Affective state\n\n");
    md.append("Mood **")
        .append(s.mood())
        .append("**; dominant emotions: ")
        .append(s.dominantEmotions().isEmpty() ? "none" : String.join(", ", s.dominantEmotions()))
        .append(".\n\n");
    md.append(
        "| energy | stress | motivation | focus | rows |\n| ---: | ---: | ---: | ---: | ---: |\n");
    md.append("| ")
        .append(fmt(s.energy()))
        .append(" | ")
        .append(fmt(s.stress()))
        .append(" | ")
        .append(fmt(s.motivation()))
        .append(" | ")
        .append(fmt(s.focus()))
        .append(" | ")
        .append(s.rows())
        .append(" |\n");
    return md.toString();
  }

  /** The RBT section: the counts of roses, buds and thorns, and the top thorns' table. */
  private static String rosesBudsThorns(PassResult r) {
    Diagnosis d = r.diagnosis();
    StringBuilder md = new StringBuilder("\n## Roses, buds and thorns\n\n");
    if (d.provisional()) {
      md.append("**Provisional**: ").append(r.fallback()).append(".\n\n");
    }
    md.append("Roses ")
        .append(d.roses().size())
        .append(", buds ")
        .append(d.buds().size())
        .append(", thorns ")
        .append(d.thorns().size())
        .append(" (of the newest ")
        .append(d.rowsConsidered())
        .append(" rows).\n\n");
    if (d.noRoses()) {
      md.append(Diagnosis.NO_ROSES).append("\n\n");
    }
    if (!d.topThorns().isEmpty()) {
      md.append("| top thorn | decayed intensity | thorns |\n| --- | ---: | ---: |\n");
      for (ThornCause t : d.topThorns()) {
        md.append("| `")
            .append(t.cause())
            .append("` | ")
            .append(fmt(t.intensity()))
            .append(" | ")
            .append(t.thorns())
            .append(" |\n");
      }
      md.append('\n');
    }
    return md.toString();
  }

  /** The prompt rules the diagnosis would add, one a line. */
  private static String promptRules(Diagnosis d) {
    StringBuilder md = new StringBuilder("## Prompt rules to add\n\n");
    if (d.promptRulesToAdd().isEmpty()) {
      md.append("None: no thorns in this window.\n");
    }
    d.promptRulesToAdd().forEach(rule -> md.append("- ").append(rule).append('\n'));
    return md.toString();
  }

  /**
   * The self-repair section: this pass's internal thorns and those resolved since the last pass.
   */
  private static String selfRepair(PassResult r) {
    if (r.internalThorns().isEmpty() && r.resolvedThorns().isEmpty()) {
      return "";
    }
    StringBuilder md = new StringBuilder("\n## Self-repair\n\n");
    for (InternalThorn t : r.internalThorns()) {
      md.append("- **")
          .append(t.type())
          .append("** at stage `")
          .append(t.stage())
          .append("` (")
          .append(t.step())
          .append("): ")
          .append(t.exception())
          .append(": ")
          .append(t.message())
          .append("\n  ")
          .append(t.suggestion())
          .append('\n');
    }
    for (InternalThorn t : r.resolvedThorns()) {
      md.append("- resolved: ")
          .append(t.type())
          .append(" at stage `")
          .append(t.stage())
          .append("`\n");
    }
    return md.toString();
  }

  /** The few lines printed on stdout after a pass. */
  public static String summary(PassResult r) {
    StringBuilder sb = new StringBuilder();
    sb.append("Vigil pass at ")
        .append(Timestamps.format(r.options().now()))
        .append(": ")
        .append(r.eventsUsed())
        .append(" events used, ")
        .append(r.eventsDeposited())
        .append(" deposited");
    long skipped = r.skipped().values().stream().mapToLong(Long::longValue).sum();
    if (skipped > 0) {
      sb.append(", ").append(skipped).append(" skipped ").append(r.skipped());
    }
    sb.append('\n');
    sb.append("alarm ").append(r.alarm().line()).append('\n');
    appendDetectorsAndThorns(sb, r);
    appendDiagnosis(sb, r);
    return sb.toString();
  }

  /** The summary's detector sentences, internal thorns raised and resolved, and the LLM's run. */
  private static void appendDetectorsAndThorns(StringBuilder sb, PassResult r) {
    for (Detection det : r.detections()) {
      if (!det.summary().isEmpty()) {
        sb.append("detector ").append(det.name()).append(": ").append(det.summary()).append('\n');
      }
    }
    for (InternalThorn t : r.internalThorns()) {
      sb.append("internal thorn ")
          .append(t.type())
          .append(" at stage ")
          .append(t.stage())
          .append(": ")
          .append(t.message())
          .append('\n');
    }
    for (InternalThorn t : r.resolvedThorns()) {
      sb.append("internal thorn resolved: ")
          .append(t.type())
          .append(" at stage ")
          .append(t.stage())
          .append('\n');
    }
    if (r.llm() != null) {
      sb.append("llm ")
          .append(r.llm().model())
          .append(": ")
          .append(r.llm().outcome())
          .append(
              r.llm().reason() == null
                  ? ""
                  : " (" + r.llm().reason() + "; the deterministic path finished)")
          .append(", ")
          .append(r.llm().calls().size())
          .append(" tool calls\n");
    }
  }

  /** The summary's diagnosis: mood, roses, buds and thorns, the top thorn and rules to add. */
  private static void appendDiagnosis(StringBuilder sb, PassResult r) {
    Diagnosis d = r.diagnosis();
    if (d.provisional()) {
      sb.append("diagnosis is provisional: ").append(r.fallback()).append('\n');
    }
    sb.append("mood ")
        .append(r.snapshot().mood())
        .append("; roses ")
        .append(d.roses().size())
        .append(", buds ")
        .append(d.buds().size())
        .append(", thorns ")
        .append(d.thorns().size())
        .append('\n');
    if (!d.topThorns().isEmpty()) {
      ThornCause top = d.topThorns().get(0);
      sb.append("top thorn: ")
          .append(top.cause())
          .append(" (decayed intensity ")
          .append(fmt(top.intensity()))
          .append(", ")
          .append(top.thorns())
          .append(" thorns)\n");
    }
    if (d.noRoses()) {
      sb.append(Diagnosis.NO_ROSES).append('\n');
    }
    d.promptRulesToAdd().forEach(rule -> sb.append("rule to add: ").append(rule).append('\n'));
  }

  static String fmt(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }

  /**
   * With a model: the worst session, what the model saw in it and where, and the next sessions;
   * otherwise "".
   */
  static String modelSaw(Alarm alarm) {
    if (alarm.rulesScore() == null || alarm.sessions().isEmpty()) {
      return "";
    }
    StringBuilder md = new StringBuilder("\n## What the model saw\n\n");
    Alarm.SessionScore worst = alarm.sessions().get(0);
    md.append("Session `")
        .append(worst.session())
        .append("`: probability of failure ")
        .append(fmt(worst.probability()))
        .append(" (the rules alone score the window ")
        .append(fmt(alarm.rulesScore()))
        .append(").\n\n");
    for (Alarm.Reason reason : alarm.reasons()) {
      md.append("- ").append(reason.summary());
      if (!reason.refs().isEmpty()) {
        md.append("; events ").append(reason.refs());
      }
      md.append('\n');
    }
    if (alarm.sessions().size() > 1) {
      md.append("\nNext:");
      alarm
          .sessions()
          .subList(1, alarm.sessions().size())
          .forEach(
              x ->
                  md.append(" `")
                      .append(x.session())
                      .append("` ")
                      .append(fmt(x.probability()))
                      .append(';'));
      md.append('\n');
    }
    return md.toString();
  }
}
