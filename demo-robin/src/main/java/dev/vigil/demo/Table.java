package dev.vigil.demo;

import java.util.Locale;

/** The paper's Table 1, before and after, as the demo prints it. */
final class Table {
  private Table() {}

  static String of(RunMetrics before, RunMetrics after, double timeScale) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT, "%-34s | %-12s | %-12s%n", "Robin, measured", "before", "after"));
    sb.append("-".repeat(34))
        .append("-+-")
        .append("-".repeat(12))
        .append("-+-")
        .append("-".repeat(12))
        .append('\n');
    row(
        sb,
        "premature toasts",
        before.prematureToasts() + "/" + before.reminders(),
        after.prematureToasts() + "/" + after.reminders());
    row(sb, "mean receipt latency (s)", latency(before, timeScale), latency(after, timeScale));
    row(sb, "frustration events", before.frustrationEvents(), after.frustrationEvents());
    row(sb, "receipt gating enforced", yes(before.receiptGating()), yes(after.receiptGating()));
    row(sb, "UTC standardized", yes(before.utcTimestamps()), yes(after.utcTimestamps()));
    if (timeScale != 1.0) {
      sb.append(
          String.format(
              Locale.ROOT,
              "time compressed: the backend's delays ran at x%s (time_scale); latency "
                  + "shown as measured, and in brackets at real scale%n",
              fmt(timeScale)));
    }
    return sb.toString();
  }

  private static String latency(RunMetrics m, double scale) {
    if (Double.isNaN(m.meanReceiptLatencySec())) {
      return "n/a";
    }
    return scale == 1.0
        ? fmt(m.meanReceiptLatencySec())
        : fmt(m.meanReceiptLatencySec()) + " [" + fmt(m.meanReceiptLatencySec() / scale) + "]";
  }

  private static String yes(boolean b) {
    return b ? "yes" : "no";
  }

  private static void row(StringBuilder sb, String label, Object before, Object after) {
    sb.append(String.format(Locale.ROOT, "%-34s | %-12s | %-12s%n", label, before, after));
  }

  private static String fmt(double v) {
    return String.format(Locale.ROOT, "%.2f", v).replaceAll("0+$", "").replaceAll("\\.$", "");
  }
}
