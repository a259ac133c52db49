package dev.vigil.adapt.code;

import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The PR note of a proposal, in Markdown: why, the evidence in numbers, what changes, checks,
 * apply, roll back.
 */
final class PrNote {
  /** Hotspots listed at most. */
  static final int MAX_HOTSPOTS = 12;

  private PrNote() {}

  static String markdown(
      Strategy strategy,
      double score,
      Evidence e,
      List<Hotspot> hotspots,
      List<String> changes,
      List<String> notes,
      List<Check> checks,
      String diffName,
      String apply,
      String rollback,
      Instant now) {
    StringBuilder md = new StringBuilder();
    appendHeader(md, strategy, score, diffName, now);
    md.append("## Why\n\n").append(strategy.why(e)).append("\n\n");
    appendEvidence(md, e);
    appendHotspots(md, hotspots);
    appendChanges(md, changes, notes);
    md.append("\n## Checks\n\n");
    checks.forEach(c -> md.append("- ").append(c).append('\n'));

    md.append("\n## Apply\n\n```bash\n").append(apply).append("\n```\n\n");
    md.append("## Roll back\n\n```bash\n").append(rollback).append("\n```\n");
    return md.toString();
  }

  /** The title and the line naming the strategy, its score, the pass and the patch. */
  private static void appendHeader(
      StringBuilder md, Strategy strategy, double score, String diffName, Instant now) {
    md.append("# ").append(strategy.title()).append("\n\n");
    md.append("Proposed by Vigil's `")
        .append(strategy.name())
        .append("` (score ")
        .append(String.format(Locale.ROOT, "%.3f", score))
        .append(") in the pass of ")
        .append(now)
        .append(". Patch: `")
        .append(diffName)
        .append("`.\n\n");
  }

  /** The evidence section: the figures table, slow tools and thorns by cause. */
  private static void appendEvidence(StringBuilder md, Evidence e) {
    md.append("## Evidence\n\n| figure | value |\n| --- | --- |\n");
    row(md, "thorns in the window", String.valueOf(e.thorns()));
    row(
        md,
        "top thorn",
        e.topThornCause() == null
            ? "none"
            : "`"
                + e.topThornCause()
                + "` (summed decayed intensity "
                + fmt(e.topThornIntensity())
                + ")");
    row(md, "premature successes", String.valueOf(e.prematureSuccesses()));
    row(
        md,
        "mean receipt lag",
        e.meanReceiptLagSec().isPresent()
            ? fmt(e.meanReceiptLagSec().getAsDouble()) + " s"
            : "not measured");
    row(md, "failed / timed-out events", e.failures() + " / " + e.timeouts());
    row(md, "timestamp inconsistencies", String.valueOf(e.timestampInconsistencies()));
    for (Evidence.SlowTool t : e.slowTools()) {
      row(
          md,
          "slow tool `" + t.kind() + "`",
          t.slowCalls()
              + " calls over its "
              + fmt(t.budgetSec())
              + " s budget, late by "
              + fmt(t.meanDelayedBySec())
              + " s on average");
    }
    if (!e.thornsByCause().isEmpty()) {
      md.append("\n| thorn cause | thorns |\n| --- | --- |\n");
      for (Map.Entry<String, Integer> c : e.thornsByCause().entrySet()) {
        row(md, "`" + c.getKey() + "`", String.valueOf(c.getValue()));
      }
    }
  }

  /** The hotspots in the changed files, at most {@link #MAX_HOTSPOTS}. */
  private static void appendHotspots(StringBuilder md, List<Hotspot> hotspots) {
    if (!hotspots.isEmpty()) {
      md.append("\nHotspots in the changed files:\n\n");
      hotspots.stream()
          .limit(MAX_HOTSPOTS)
          .forEach(
              h ->
                  md.append("- `")
                      .append(h.location())
                      .append("` (")
                      .append(h.category().label())
                      .append("): `")
                      .append(h.text().replace("`", "'"))
                      .append("`\n"));
      if (hotspots.size() > MAX_HOTSPOTS) {
        md.append("- … and ").append(hotspots.size() - MAX_HOTSPOTS).append(" more\n");
      }
    }
  }

  /** What the proposal changes, and what it leaves alone. */
  private static void appendChanges(StringBuilder md, List<String> changes, List<String> notes) {
    md.append("\n## What changes\n\n");
    changes.forEach(c -> md.append("- ").append(c).append('\n'));
    if (!notes.isEmpty()) {
      md.append("\nLeft alone:\n\n");
      notes.forEach(n -> md.append("- ").append(n).append('\n'));
    }
  }

  private static void row(StringBuilder md, String figure, String value) {
    md.append("| ").append(figure).append(" | ").append(value.replace("|", "\\|")).append(" |\n");
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }
}
