package dev.vigil.diagnose.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.vigil.diagnose.detect.Derived;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.diagnose.detect.WholeWindowDetector;
import dev.vigil.diagnose.detect.WindowEvent;
import dev.vigil.observe.Event;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One policy rule as a detector (SPEC section 4.4b): its expression is evaluated on every call of its tool, with the
 * call's own session before it; each call where it holds is one violation, derived as {@code policy.<name>}, status
 * {@code fail}, payload {@code policy}, {@code tool}, {@code severity} (which the appraisal takes as the intensity)
 * and {@code violation}. A call on which the expression fails (a missing field, a wrong type) is counted in the
 * evidence's {@code errors}, with the first few messages, and the pass goes on.
 *
 * <p>A session is the events sharing {@code agent} and {@code session}; events without a session are grouped by
 * agent. Only the window's events are seen, in the window's order (timestamp, then input order).
 */
final class PolicyDetector extends WholeWindowDetector {
  /** How many error messages the evidence quotes. */
  static final int ERROR_EXAMPLES = 3;

  private static final Pattern CEL_POSITION = Pattern.compile("^evaluation error at <input>:(\\d+): ");

  private final PolicyRule rule;
  private final CelRuntime.Program program;

  PolicyDetector(PolicyRule rule, CelRuntime.Program program) {
    this.rule = rule;
    this.program = program;
  }

  @Override
  public String name() {
    return rule.detectorName();
  }

  PolicyRule rule() {
    return rule;
  }

  private record SessionKey(String agent, String session) {}

  @Override
  public Detection detect(List<WindowEvent> window) {
    Map<SessionKey, List<Event>> sessions = new HashMap<>();
    Map<Event, Map<String, Object>> asCel = new IdentityHashMap<>();
    ObjectNode evidence = JsonNodeFactory.instance.objectNode().put("tool", rule.tool())
        .put("violation", rule.violation()).put("severity", rule.severity());
    ArrayNode violations = JsonNodeFactory.instance.arrayNode();
    ArrayNode examples = JsonNodeFactory.instance.arrayNode();
    List<Derived> derived = new ArrayList<>();
    int calls = 0;
    int errors = 0;
    for (WindowEvent w : window) {
      Event e = w.event();
      List<Event> earlier = sessions.computeIfAbsent(new SessionKey(e.agent(), e.session()), k -> new ArrayList<>());
      if (rule.watches(e)) {
        calls++;
        SessionHistory history = new SessionHistory(earlier, asCel);
        Object verdict;
        try {
          verdict = PolicyEnvironment.eval(program, variables(e, history), history);
        } catch (CelEvaluationException | RuntimeException ex) {
          verdict = ex;
        }
        if (verdict instanceof Boolean holds) {
          if (holds) {
            derived.add(new Derived(violation(e), w.identity()));
            ObjectNode v = violations.addObject().put("ref", w.ref());
            putPresent(v, "session", e.session());
            putPresent(v, "turn", e.turn());
          }
        } else {
          errors++;
          if (examples.size() < ERROR_EXAMPLES) {
            examples.addObject().put("ref", w.ref()).put("message", message(verdict));
          }
        }
      }
      earlier.add(e);
    }
    evidence.put("calls", calls).put("errors", errors);
    evidence.set("violations", violations);
    if (errors > 0) {
      evidence.set("error_examples", examples);
    }
    String summary = derived.size() + " of " + calls + " calls of " + rule.tool() + " broke policy " + rule.name()
        + (rule.description().isEmpty() ? "" : " (" + rule.description() + ")");
    return new Detection(name(), derived.size(), evidence, derived.isEmpty() ? "" : summary, derived);
  }

  private static Map<String, Object> variables(Event e, SessionHistory history) {
    JsonNode args = e.payload().get("args");
    return Map.of(
        PolicyEnvironment.ARGS, args == null ? Map.of() : CelValues.of(args),
        PolicyEnvironment.RESULT, CelValues.result(e.payload().get("result")),
        PolicyEnvironment.STATUS, e.status(),
        PolicyEnvironment.TOOL, PolicyRule.toolName(e),
        PolicyEnvironment.SESSION, Map.of(PolicyEnvironment.USER_TEXTS, history.userTexts()));
  }

  private Event violation(Event call) {
    ObjectNode payload = JsonNodeFactory.instance.objectNode().put("policy", rule.name())
        .put("tool", PolicyRule.toolName(call)).put("severity", rule.severity()).put("violation", rule.violation());
    return new Event(call.ts(), rule.detectorName(), "fail", payload, call.agent(), null, call.pid(), null,
        call.turn(), null, call.session());
  }

  /** Why a call could not be judged: CEL's message with its position as a character of the expression. */
  private static String message(Object verdict) {
    if (verdict instanceof Exception ex) {
      String m = String.valueOf(ex.getMessage());
      Matcher at = CEL_POSITION.matcher(m);
      return at.find() ? m.substring(at.end()) + " (at character " + (Integer.parseInt(at.group(1)) + 1)
          + " of the expression)" : m;
    }
    return "the expression gave " + verdict + ", not a bool";
  }

  private static void putPresent(ObjectNode n, String field, String value) {
    if (value != null) {
      n.put(field, value);
    }
  }
}
