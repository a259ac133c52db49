package dev.vigil.diagnose.detect;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.observe.Event;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * {@code tool_call_explosion} (docs/DETECTORS.md; the field report's failure mode 1): more than
 * {@code max_calls} (8) tool calls while answering one user message. A call belongs to a turn by
 * the event's {@code turn} (the agent's field), else {@code payload.turn}; Vigil's own {@code
 * vigil.*} events and the conversation's {@code turn.*} events are not calls.
 *
 * <p>Streaming, in memory bounded per turn: a turn is open from its first call until it has made no
 * call for {@link #TURN_IDLE} (event time) or the window ends; then it is judged. At most {@value
 * #MAX_OPEN_TURNS} turns are open at once: beyond, the one idle longest is judged early ({@code
 * turns_closed_early} counts them), and a call of it that comes later starts it afresh. A turn
 * keeps its count, a compact copy of its first call, the ref of its last, the first call over the
 * budget and the count per tool (at most {@value #MAX_TOOLS_PER_TURN} tools; calls of further tools
 * are counted as {@code other_tools}).
 *
 * <p>Derived event: {@code turn.tool_call_explosion}, status {@code fail}, at the first call over
 * the budget, payload {@code turn}, {@code calls} and {@code max_calls}; it goes out when the turn
 * is judged. Evidence: the newest {@value Findings#MAX_CITED} turns over budget and {@code
 * turns_total}.
 */
final class ToolCallExplosion implements Detector {
  /** The detector's name. */
  public static final String NAME = "tool_call_explosion";

  /** The derived event's kind. */
  public static final String KIND = "turn.tool_call_explosion";

  /** A turn with no call for this long (event time) is over. */
  static final Duration TURN_IDLE = Duration.ofHours(1);

  /** Turns open at once. */
  static final int MAX_OPEN_TURNS = 4_096;

  /** Tools counted by name in one turn. */
  static final int MAX_TOOLS_PER_TURN = 50;

  private final int maxCalls;

  /** A detector with this per-turn budget. */
  public ToolCallExplosion(DetectorSettings settings) {
    this.maxCalls = settings.maxCallsPerTurn();
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

  /** One open turn. */
  private static final class Turn {
    final String id;
    final long order;
    final WindowEvent first;
    final Map<String, Integer> tools = new TreeMap<>();
    long lastRef;
    WindowEvent over;
    Instant lastTs;
    int calls;
    int otherTools;

    Turn(String id, long order, WindowEvent first) {
      this.id = id;
      this.order = order;
      this.first = first;
    }
  }

  /** One window's reading. */
  final class Reading implements Scan {
    private final Findings found;

    /** Open turns, the one idle longest first. */
    private final LinkedHashMap<String, Turn> open = new LinkedHashMap<>(16, 0.75f, true);

    private long opened;
    private long closedEarly;
    private String worstTurn;
    private int worstCalls;

    private Reading(Consumer<Derived> derived) {
      this.found = new Findings(NAME, derived);
    }

    @Override
    public void accept(WindowEvent w) {
      Event e = w.event();
      closeIdle(e.ts());
      String id = turnOf(e);
      if (id == null || e.kind().startsWith("vigil.") || e.kind().startsWith("turn.")) {
        return;
      }
      Turn t = open.get(id);
      if (t == null) {
        if (open.size() >= MAX_OPEN_TURNS) {
          Iterator<Turn> idlest = open.values().iterator();
          Turn early = idlest.next();
          idlest.remove();
          closedEarly++;
          close(early);
        }
        t = new Turn(id, opened++, EventFields.slim(w));
        open.put(id, t);
      }
      t.calls++;
      t.lastRef = w.ref();
      t.lastTs = e.ts();
      if (t.calls == maxCalls + 1) {
        t.over = w;
      }
      if (t.tools.size() < MAX_TOOLS_PER_TURN || t.tools.containsKey(e.kind())) {
        t.tools.merge(e.kind(), 1, Integer::sum);
      } else {
        t.otherTools++;
      }
    }

    @Override
    public Detection finish() {
      List<Turn> rest = new ArrayList<>(open.values());
      open.clear();
      rest.sort(Comparator.comparingLong(t -> t.order));
      rest.forEach(this::close);
      ObjectNode evidence = JsonNodeFactory.instance.objectNode().put("max_calls", maxCalls);
      if (closedEarly > 0) {
        evidence.put("turns_closed_early", closedEarly);
      }
      evidence.putArray("turns");
      int n = found.count();
      String summary =
          n == 0
              ? ""
              : "turn "
                  + worstTurn
                  + " made "
                  + worstCalls
                  + " tool calls against a budget of "
                  + maxCalls
                  + (n > 1 ? " (" + n + " turns over budget)" : "");
      return found.detection(evidence, summary);
    }

    /** Turns open now. */
    int openTurns() {
      return open.size();
    }

    private void closeIdle(Instant now) {
      Iterator<Turn> idlest = open.values().iterator();
      while (idlest.hasNext()) {
        Turn t = idlest.next();
        if (Duration.between(t.lastTs, now).compareTo(TURN_IDLE) <= 0) {
          return;
        }
        idlest.remove();
        close(t);
      }
    }

    private void close(Turn t) {
      if (t.calls <= maxCalls) {
        return;
      }
      ObjectNode entry =
          found
              .entry("turns")
              .put("turn", t.id)
              .put("calls", t.calls)
              .put("first", t.first.ref())
              .put("last", t.lastRef);
      ObjectNode byTool = entry.putObject("tools");
      t.tools.forEach(byTool::put);
      if (t.otherTools > 0) {
        entry.put("other_tools", t.otherTools);
      }
      found.cite(t.first);
      ObjectNode payload =
          JsonNodeFactory.instance
              .objectNode()
              .put("turn", t.id)
              .put("calls", t.calls)
              .put("max_calls", maxCalls);
      Event over = t.over.event();
      found.derive(t.over, EventFields.derive(over, KIND, "fail", over.ts(), payload));
      if (t.calls > worstCalls) {
        worstTurn = t.id;
        worstCalls = t.calls;
      }
    }
  }

  private static String turnOf(Event e) {
    if (e.turn() != null) {
      return e.turn();
    }
    var t = e.payload().get("turn");
    return t != null && t.isValueNode() && !t.asText().isEmpty() ? t.asText() : null;
  }
}
