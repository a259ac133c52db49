package dev.vigil.diagnose.detect;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.observe.Event;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code tool_call_explosion} (SPEC section 4.4; the field report's failure mode 1): more than {@code max_calls}
 * (8) tool calls while answering one user message. A call belongs to a turn by the event's {@code turn} (the
 * agent's field), else {@code payload.turn}; Vigil's own {@code vigil.*} events and the conversation's {@code turn.*} events
 * are not calls.
 *
 * <p>Derived event: {@code turn.tool_call_explosion}, status {@code fail}, at the first call over the budget,
 * payload {@code turn}, {@code calls} and {@code max_calls}.
 */
final class ToolCallExplosion extends WholeWindowDetector {
  /** The detector's name. */
  public static final String NAME = "tool_call_explosion";
  /** The derived event's kind. */
  public static final String KIND = "turn.tool_call_explosion";

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
  public Detection detect(List<WindowEvent> window) {
    Map<String, List<WindowEvent>> byTurn = new LinkedHashMap<>();
    for (WindowEvent w : window) {
      String turn = turnOf(w.event());
      if (turn != null && !w.event().kind().startsWith("vigil.") && !w.event().kind().startsWith("turn.")) {
        byTurn.computeIfAbsent(turn, t -> new ArrayList<>()).add(w);
      }
    }
    ObjectNode evidence = JsonNodeFactory.instance.objectNode().put("max_calls", maxCalls);
    ArrayNode turns = evidence.putArray("turns");
    List<Derived> derived = new ArrayList<>();
    String worstTurn = null;
    int worstCalls = 0;
    for (var entry : byTurn.entrySet()) {
      List<WindowEvent> calls = entry.getValue();
      if (calls.size() <= maxCalls) {
        continue;
      }
      Map<String, Integer> tools = new TreeMap<>();
      calls.forEach(w -> tools.merge(w.event().kind(), 1, Integer::sum));
      ObjectNode t = turns.addObject().put("turn", entry.getKey()).put("calls", calls.size())
          .put("first", calls.get(0).ref()).put("last", calls.get(calls.size() - 1).ref());
      ObjectNode byTool = t.putObject("tools");
      tools.forEach(byTool::put);
      WindowEvent over = calls.get(maxCalls);
      ObjectNode payload = JsonNodeFactory.instance.objectNode().put("turn", entry.getKey())
          .put("calls", calls.size()).put("max_calls", maxCalls);
      derived.add(new Derived(EventFields.derive(over.event(), KIND, "fail", over.event().ts(), payload),
          over.identity()));
      if (calls.size() > worstCalls) {
        worstTurn = entry.getKey();
        worstCalls = calls.size();
      }
    }
    String summary = derived.isEmpty() ? "" : "turn " + worstTurn + " made " + worstCalls
        + " tool calls against a budget of " + maxCalls + (derived.size() > 1
            ? " (" + derived.size() + " turns over budget)" : "");
    return new Detection(NAME, derived.size(), evidence, summary, derived);
  }

  private static String turnOf(Event e) {
    if (e.turn() != null) {
      return e.turn();
    }
    var t = e.payload().get("turn");
    return t != null && t.isValueNode() && !t.asText().isEmpty() ? t.asText() : null;
  }
}
