package dev.vigil.diagnose.detect;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.observe.Event;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code latency} (docs/DETECTORS.md; creeping latency): a call slower than its tool's budget. The
 * budget is the configured one for the kind, else {@code factor} (3) times the kind's median {@code
 * duration_ms} and at least {@code min_budget_ms} (1 s).
 *
 * <p>Streaming, in memory bounded per tool: a kind's median is the median of its calls in the
 * window while the window holds at most {@value #EXACT_CALLS} of them, exactly as when the whole
 * window is read at once; the calls that could be slow (longer than {@code min_budget_ms}) wait, as
 * {@link EventFields#slim compact copies}, until the window ends and are judged against it. A
 * busier kind is judged as it goes: when its calls pass {@value #EXACT_CALLS}, the calls held are
 * judged against the median of the first {@value #EXACT_CALLS}, and each later call against the
 * median of all the kind's calls before it, kept by a {@link DurationSketch} within 1 % (its
 * evidence says {@code running_median}, and each of its slow calls its own {@code budget_ms}). A
 * configured budget is known up front: those calls are judged at once. At most {@value #MAX_TOOLS}
 * kinds are followed; calls of further kinds are counted ({@code untracked_calls}), not judged.
 *
 * <p>Derived event: {@code <kind>.latency}, status {@code delay}, at the call's start, payload
 * {@code delayed_by_sec} (duration minus budget), {@code duration_ms}, {@code budget_ms} and {@code
 * call}. Evidence: per kind with slow calls its {@code calls}, {@code median_ms}, {@code
 * budget_ms}, {@code budget} ({@code configured}, {@code median} or {@code running_median}), the
 * newest {@value Findings#MAX_CITED} slow calls and {@code slow_total}.
 */
public final class Latency implements Detector {
  /** The detector's name. */
  public static final String NAME = "latency";

  /**
   * A kind's calls are judged against the window's median while the window holds at most this many
   * of them.
   */
  static final int EXACT_CALLS = 1_000;

  /** Kinds followed in one window. */
  static final int MAX_TOOLS = 1_000;

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
  public Scan scan(Consumer<Derived> derived) {
    return start(derived);
  }

  /** {@link #scan}, with its state open to tests. */
  Reading start(Consumer<Derived> derived) {
    return new Reading(derived);
  }

  /** One kind's calls so far. */
  private final class Tool {
    final String kind;
    final Double configured;
    final ToolDurations durations = new ToolDurations(EXACT_CALLS);
    final List<WindowEvent> held = new ArrayList<>();
    final Newest<ObjectNode> slow = new Newest<>(Findings.MAX_CITED);

    /** Whether the kind outgrew {@link #EXACT_CALLS}: its calls are judged as they come. */
    boolean running;

    Tool(String kind) {
      this.kind = kind;
      this.configured = settings.latencyBudgetsMs().get(kind);
    }

    double budget(double median) {
      return configured != null
          ? configured
          : Math.max(settings.latencyFactor() * median, settings.latencyMinBudgetMs());
    }
  }

  /** One window's reading. */
  final class Reading implements Scan {
    private final Findings found;
    private final Map<String, Tool> tools = new LinkedHashMap<>();
    private final RecentEvents whole = new RecentEvents(Findings.MAX_CITED);
    private long untracked;
    private String worstKind;
    private double worstBudget;
    private double worstMs;

    private Reading(Consumer<Derived> derived) {
      this.found = new Findings(NAME, derived);
    }

    @Override
    public void accept(WindowEvent w) {
      double ms = EventFields.durationMs(w.event());
      if (ms < 0) {
        return;
      }
      String kind = w.event().kind();
      Tool t = tools.get(kind);
      if (t == null) {
        if (tools.size() >= MAX_TOOLS) {
          untracked++;
          return;
        }
        t = new Tool(kind);
        tools.put(kind, t);
      }
      if (t.configured != null) {
        judge(t, w, ms, t.configured);
      } else if (t.durations.isExact() && t.durations.count() < EXACT_CALLS) {
        if (ms > settings.latencyMinBudgetMs()) {
          t.held.add(EventFields.slim(w)); // may be slow: judged when the window's median is known
          whole.keep(w);
        }
      } else {
        if (!t.running) {
          t.running = true;
          judgeHeld(
              t); // the kind is busy: what waits is judged against the median of its first calls
        }
        judge(t, w, ms, t.budget(t.durations.median()));
      }
      t.durations.add(ms);
    }

    @Override
    public Detection finish() {
      ObjectNode evidence = JsonNodeFactory.instance.objectNode();
      if (untracked > 0) {
        evidence.put("untracked_calls", untracked);
      }
      evidence.putArray("tools");
      for (Tool t : tools.values()) {
        judgeHeld(t);
        if (t.slow.total() == 0) {
          continue;
        }
        double median = t.durations.median();
        ObjectNode e =
            found
                .entry("tools")
                .put("kind", t.kind)
                .put("calls", t.durations.count())
                .put("median_ms", median)
                .put("budget_ms", t.budget(median))
                .put(
                    "budget",
                    t.configured != null ? "configured" : t.running ? "running_median" : "median");
        ArrayNode slow = e.putArray("slow");
        t.slow.items().forEach(slow::add);
        e.put("slow_total", t.slow.total());
      }
      int n = found.count();
      String summary =
          n == 0
              ? ""
              : String.format(
                  Locale.ROOT,
                  "%d %s over budget; slowest: %s took %.1f s against a budget of %.1f s",
                  n,
                  n == 1 ? "call" : "calls",
                  worstKind,
                  worstMs / 1000.0,
                  worstBudget / 1000.0);
      return found.detection(evidence, summary);
    }

    /** Calls held and not judged yet, over all kinds. */
    int held() {
      return tools.values().stream().mapToInt(t -> t.held.size()).sum();
    }

    private void judgeHeld(Tool t) {
      if (t.held.isEmpty()) {
        return;
      }
      double budget = t.budget(t.durations.median());
      for (WindowEvent w : t.held) {
        judge(t, whole.whole(w), EventFields.durationMs(w.event()), budget);
      }
      t.held.clear();
    }

    private void judge(Tool t, WindowEvent w, double ms, double budget) {
      if (ms <= budget) {
        return;
      }
      Event e = w.event();
      ObjectNode call =
          JsonNodeFactory.instance.objectNode().put("ref", w.ref()).put("duration_ms", ms);
      if (t.running) {
        call.put("budget_ms", budget);
      }
      t.slow.add(call);
      ObjectNode payload =
          JsonNodeFactory.instance
              .objectNode()
              .put("delayed_by_sec", (ms - budget) / 1000.0)
              .put("duration_ms", ms)
              .put("budget_ms", budget)
              .put("call", w.ref());
      found.derive(w, EventFields.derive(e, t.kind + ".latency", "delay", e.ts(), payload));
      if (worstKind == null || ms - budget > worstMs - worstBudget) {
        worstKind = t.kind;
        worstBudget = budget;
        worstMs = ms;
      }
    }
  }
}
