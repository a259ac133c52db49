package dev.vigil.diagnose.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cel.runtime.CelEvaluationException;
import dev.vigil.diagnose.detect.Derived;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.diagnose.detect.Detector;
import dev.vigil.diagnose.detect.Findings;
import dev.vigil.diagnose.detect.Scan;
import dev.vigil.diagnose.detect.WindowEvent;
import dev.vigil.observe.Event;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One policy rule as a detector (docs/POLICIES.md): its expression is evaluated on every call of
 * its tool, with the call's own session before it; each call where it holds is one violation,
 * derived as {@code policy.<name>}, status {@code fail}, payload {@code policy}, {@code tool},
 * {@code severity} (which the appraisal takes as the intensity) and {@code violation}. A call on
 * which the expression fails (a missing field, a wrong type) is counted in the evidence's {@code
 * errors}, with the first few messages, and the pass goes on.
 *
 * <p>A session is the events sharing {@code agent} and {@code session}; events without a session
 * are grouped by agent. Only the window's events are seen, in the window's order (timestamp, then
 * input order), one at a time: a session's history is bounded ({@link SessionHistory}), and so are
 * the sessions kept open ({@link PolicySessions}). The evidence lists the newest violations ({@code
 * violations_total} says how many) and, when sessions had to be closed to stay within the bounds,
 * {@code sessions_closed_early}.
 */
final class PolicyDetector implements Detector {
  /** How many error messages the evidence quotes. */
  static final int ERROR_EXAMPLES = 3;

  private static final Pattern CEL_POSITION =
      Pattern.compile("^evaluation error at <input>:(\\d+): ");

  /** The history of a rule that reads nothing of its session: empty, and no session is kept. */
  private static final SessionHistory NO_HISTORY =
      new SessionHistory(new HistoryNeeds(Set.of(), Set.of(), false, false));

  private final PolicyRule rule;
  private final PolicyEnvironment.Compiled compiled;
  private final int maxSessions;
  private final int maxHeld;

  PolicyDetector(PolicyRule rule, PolicyEnvironment.Compiled compiled) {
    this(rule, compiled, PolicySessions.MAX_SESSIONS, PolicySessions.MAX_HELD);
  }

  /**
   * A detector that keeps at most {@code maxSessions} sessions and {@code maxHeld} events (tests
   * use small ones).
   */
  PolicyDetector(
      PolicyRule rule, PolicyEnvironment.Compiled compiled, int maxSessions, int maxHeld) {
    this.rule = rule;
    this.compiled = compiled;
    this.maxSessions = maxSessions;
    this.maxHeld = maxHeld;
  }

  @Override
  public String name() {
    return rule.detectorName();
  }

  PolicyRule rule() {
    return rule;
  }

  @Override
  public Scan scan(Consumer<Derived> derived) {
    return new PolicyScan(new Findings(name(), derived));
  }

  /** One window's reading: each call of the rule's tool judged on its session's history so far. */
  final class PolicyScan implements Scan {
    private final Findings found;
    private final PolicySessions sessions =
        new PolicySessions(compiled.needs(), maxSessions, maxHeld);
    private final ArrayNode examples = JsonNodeFactory.instance.arrayNode();
    private int calls;
    private int errors;

    PolicyScan(Findings found) {
      this.found = found;
    }

    @Override
    public void accept(WindowEvent w) {
      Event e = w.event();
      if (compiled.needs().nothing()) {
        if (rule.watches(e)) {
          judge(w, NO_HISTORY);
        }
        return;
      }
      SessionHistory history = sessions.of(e);
      if (rule.watches(e)) {
        judge(w, history);
      }
      sessions.add(history, e);
    }

    private void judge(WindowEvent w, SessionHistory history) {
      Event e = w.event();
      calls++;
      Object verdict;
      try {
        verdict = PolicyEnvironment.eval(compiled.program(), variables(e, history), history);
      } catch (CelEvaluationException | RuntimeException ex) {
        verdict = ex;
      }
      if (verdict instanceof Boolean holds) {
        if (holds) {
          ObjectNode v = found.entry("violations").put("ref", w.ref());
          putPresent(v, "session", e.session());
          putPresent(v, "turn", e.turn());
          found.derive(w, violation(e));
        }
      } else {
        errors++;
        if (examples.size() < ERROR_EXAMPLES) {
          examples.addObject().put("ref", w.ref()).put("message", message(verdict));
        }
      }
    }

    /** How many sessions are open. */
    int openSessions() {
      return sessions.size();
    }

    /** How many events and texts the open sessions' histories hold. */
    long held() {
      return sessions.held();
    }

    @Override
    public Detection finish() {
      ObjectNode evidence =
          JsonNodeFactory.instance
              .objectNode()
              .put("tool", rule.tool())
              .put("violation", rule.violation())
              .put("severity", rule.severity())
              .put("calls", calls)
              .put("errors", errors);
      evidence.putArray("violations");
      evidence.put("violations_total", 0);
      if (errors > 0) {
        evidence.set("error_examples", examples);
      }
      if (sessions.closedEarly() > 0) {
        evidence.put("sessions_closed_early", sessions.closedEarly());
      }
      String summary =
          found.count()
              + " of "
              + calls
              + " calls of "
              + rule.tool()
              + " broke policy "
              + rule.name()
              + (rule.description().isEmpty() ? "" : " (" + rule.description() + ")");
      return found.detection(evidence, summary);
    }
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
    ObjectNode payload =
        JsonNodeFactory.instance
            .objectNode()
            .put("policy", rule.name())
            .put("tool", PolicyRule.toolName(call))
            .put("severity", rule.severity())
            .put("violation", rule.violation());
    return new Event(
        call.ts(),
        rule.detectorName(),
        "fail",
        payload,
        call.agent(),
        null,
        call.pid(),
        null,
        call.turn(),
        null,
        call.session());
  }

  /**
   * Why a call could not be judged: CEL's message with its position as a character of the
   * expression.
   */
  private static String message(Object verdict) {
    if (verdict instanceof Exception ex) {
      String m = String.valueOf(ex.getMessage());
      Matcher at = CEL_POSITION.matcher(m);
      return at.find()
          ? m.substring(at.end())
              + " (at character "
              + (Integer.parseInt(at.group(1)) + 1)
              + " of the expression)"
          : m;
    }
    return "the expression gave " + verdict + ", not a bool";
  }

  private static void putPresent(ObjectNode n, String field, String value) {
    if (value != null) {
      n.put(field, value);
    }
  }
}
