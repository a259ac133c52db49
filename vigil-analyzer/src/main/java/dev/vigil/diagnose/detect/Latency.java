package dev.vigil.diagnose.detect;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.observe.Event;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code latency} (SPEC section 4.4; creeping latency): a call slower than its tool's budget. The budget is the
 * configured one for the kind, else {@code factor} (3) times the kind's median {@code duration_ms} in the window and
 * at least {@code min_budget_ms} (1 s).
 *
 * <p>Derived event: {@code <kind>.latency}, status {@code delay}, at the call's start, payload
 * {@code delayed_by_sec} (duration minus budget), {@code duration_ms} and {@code budget_ms}.
 */
public final class Latency extends WholeWindowDetector {
  /** The detector's name. */
  public static final String NAME = "latency";

  private final DetectorSettings settings;

  /** A detector with these budgets. */
  public Latency(DetectorSettings settings) {
    this.settings = settings;
  }

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public Detection detect(List<WindowEvent> window) {
    Map<String, List<WindowEvent>> byKind = new LinkedHashMap<>();
    for (WindowEvent w : window) {
      if (EventFields.durationMs(w.event()) >= 0) {
        byKind.computeIfAbsent(w.event().kind(), k -> new ArrayList<>()).add(w);
      }
    }
    ObjectNode evidence = JsonNodeFactory.instance.objectNode();
    ArrayNode tools = evidence.putArray("tools");
    List<Derived> derived = new ArrayList<>();
    String worstKind = null;
    double worstBudget = 0;
    double worstMs = 0;
    for (var entry : byKind.entrySet()) {
      String kind = entry.getKey();
      List<WindowEvent> calls = entry.getValue();
      double median = median(calls);
      Double configured = settings.latencyBudgetsMs().get(kind);
      double budget = configured != null ? configured
          : Math.max(settings.latencyFactor() * median, settings.latencyMinBudgetMs());
      ArrayNode slow = JsonNodeFactory.instance.arrayNode();
      for (WindowEvent w : calls) {
        Event e = w.event();
        double ms = EventFields.durationMs(e);
        if (ms <= budget) {
          continue;
        }
        slow.addObject().put("ref", w.ref()).put("duration_ms", ms);
        ObjectNode payload = JsonNodeFactory.instance.objectNode()
            .put("delayed_by_sec", (ms - budget) / 1000.0)
            .put("duration_ms", ms)
            .put("budget_ms", budget)
            .put("call", w.ref());
        derived.add(new Derived(EventFields.derive(e, kind + ".latency", "delay", e.ts(), payload), w.identity()));
        if (ms - budget > worstMs - worstBudget || worstKind == null) {
          worstKind = kind;
          worstBudget = budget;
          worstMs = ms;
        }
      }
      if (!slow.isEmpty()) {
        ObjectNode t = tools.addObject().put("kind", kind).put("calls", calls.size()).put("median_ms", median)
            .put("budget_ms", budget).put("budget", configured != null ? "configured" : "median");
        t.set("slow", slow);
      }
    }
    String summary = derived.isEmpty() ? "" : String.format(Locale.ROOT,
        "%d %s over budget; slowest: %s took %.1f s against a budget of %.1f s", derived.size(),
        derived.size() == 1 ? "call" : "calls", worstKind, worstMs / 1000.0, worstBudget / 1000.0);
    return new Detection(NAME, derived.size(), evidence, summary, derived);
  }

  private static double median(List<WindowEvent> calls) {
    double[] d = calls.stream().mapToDouble(w -> EventFields.durationMs(w.event())).toArray();
    Arrays.sort(d);
    int n = d.length;
    return n % 2 == 1 ? d[n / 2] : (d[n / 2 - 1] + d[n / 2]) / 2;
  }
}
