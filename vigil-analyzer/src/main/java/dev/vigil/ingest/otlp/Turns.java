package dev.vigil.ingest.otlp;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.observe.Event;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The events of one trace (docs/OPENTELEMETRY.md#turns): each outermost agent span frames a turn,
 * and the tool and model spans beneath it belong to that turn; those beneath no agent span form one
 * turn of the trace. A turn gives a {@code turn.user} (the agent's input, else the first model
 * call's last user message), a tool event per tool span, and a {@code turn.answer} (the agent's
 * output, else the last model call's answer), with one {@code turn}, {@code session} and {@code
 * agent}.
 */
final class Turns {
  /** Skip reason of a span whose end is before its start, or that has no start. */
  static final String BAD_TIME = "otlp_span_bad_time";

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  private static final Comparator<TraceSpan> BY_START =
      Comparator.comparingLong(TraceSpan::startNanos);

  /** What the events of one turn share. */
  record Frame(String turn, String session, String agent) {}

  private Turns() {}

  /**
   * Maps the spans of one trace to events, turn by turn, in the order user, tools by start, answer;
   * spans that are skipped go to {@code skip} with their reason.
   */
  static List<Event> of(List<TraceSpan> trace, Consumer<String> skip) {
    Map<String, TraceSpan> byId = new HashMap<>(trace.size() * 2);
    for (TraceSpan s : trace) {
      byId.put(s.spanId(), s);
    }
    Map<String, List<TraceSpan>> frames = new LinkedHashMap<>();
    Map<TraceSpan, SpanRole> roles = new IdentityHashMap<>();
    for (TraceSpan s : trace) {
      SpanRole role = SpanRole.of(s);
      if (role == null) {
        skip.accept(SpanRole.skipReason(s));
      } else if (s.startNanos() <= 0 || s.endNanos() < s.startNanos()) {
        skip.accept(BAD_TIME);
      } else {
        roles.put(s, role);
        frames.computeIfAbsent(frameId(s, byId, roles), k -> new ArrayList<>()).add(s);
      }
    }
    List<Event> out = new ArrayList<>();
    for (Map.Entry<String, List<TraceSpan>> f : frames.entrySet()) {
      turn(f.getKey(), f.getValue(), byId.get(f.getKey()), trace, roles, skip, out);
    }
    return out;
  }

  /** The id of the outermost agent span above {@code s} (or {@code s} itself), else "". */
  private static String frameId(
      TraceSpan s, Map<String, TraceSpan> byId, Map<TraceSpan, SpanRole> roles) {
    String frame = "";
    TraceSpan at = s;
    for (int hops = 0; at != null && hops <= byId.size(); hops++) {
      SpanRole r = at == s ? roles.get(s) : SpanRole.of(at);
      if (r == SpanRole.AGENT) {
        frame = at.spanId();
      }
      at = at.parentId().isEmpty() ? null : byId.get(at.parentId());
    }
    return frame;
  }

  private static void turn(
      String frameId,
      List<TraceSpan> members,
      TraceSpan agentSpan,
      List<TraceSpan> trace,
      Map<TraceSpan, SpanRole> roles,
      Consumer<String> skip,
      List<Event> out) {
    members.sort(BY_START);
    TraceSpan first = agentSpan != null ? agentSpan : members.get(0);
    Frame frame =
        new Frame(
            frameId.isEmpty() ? first.traceId() : frameId,
            session(agentSpan, members, trace),
            first.service());
    List<TraceSpan> models = new ArrayList<>();
    List<Event> tools = new ArrayList<>();
    long start = first.startNanos();
    long end = first.endNanos();
    for (TraceSpan s : members) {
      start = Math.min(start, s.startNanos());
      end = Math.max(end, s.endNanos());
      SpanRole role = roles.get(s);
      if (role == SpanRole.MODEL) {
        models.add(s);
      } else if (role == SpanRole.TOOL) {
        String tool = ToolSpans.toolName(s);
        if (tool == null) {
          skip.accept(ToolSpans.WITHOUT_NAME);
        } else {
          tools.add(ToolSpans.event(s, tool, frame));
        }
      }
    }
    if (agentSpan != null) {
      start = agentSpan.startNanos();
      end = agentSpan.endNanos();
    }
    String user = agentSpan != null ? Messages.userText(agentSpan) : null;
    if (user == null && !models.isEmpty()) {
      user = Messages.userText(models.get(0));
    }
    TraceSpan source = agentSpan != null ? agentSpan : members.get(0);
    if (user != null) {
      ObjectNode payload = text(user);
      payload.set("otel", ToolSpans.otel(source));
      out.add(side(start, "turn.user", payload, "ok", frame));
    }
    out.addAll(tools);
    answer(agentSpan, source, models, tools.size(), end, frame, out);
  }

  private static void answer(
      TraceSpan agentSpan,
      TraceSpan source,
      List<TraceSpan> models,
      int toolCalls,
      long end,
      Frame frame,
      List<Event> out) {
    String answer = agentSpan != null ? Messages.answerText(agentSpan) : null;
    if (answer == null && !models.isEmpty()) {
      TraceSpan last = models.stream().max(Comparator.comparingLong(TraceSpan::endNanos)).get();
      answer = Messages.answerText(last);
    }
    ObjectNode error = agentSpan != null ? ToolSpans.error(agentSpan) : null;
    if (answer == null && error == null) {
      return;
    }
    ObjectNode payload = text(answer);
    payload.put("tool_calls", toolCalls);
    if (error != null) {
      payload.set("error", error);
    }
    payload.set("otel", ToolSpans.otel(source));
    out.add(side(end, "turn.answer", payload, error != null ? "fail" : "ok", frame));
  }

  private static ObjectNode text(String text) {
    ObjectNode payload = JSON.objectNode();
    payload.put("text", text);
    return payload;
  }

  private static Event side(long nanos, String kind, ObjectNode payload, String status, Frame f) {
    return new Event(
        ToolSpans.instant(nanos),
        kind,
        status,
        payload,
        f.agent(),
        null,
        null,
        null,
        f.turn(),
        null,
        f.session());
  }

  /**
   * The session: {@code gen_ai.conversation.id} or OpenInference's {@code session.id} of the agent
   * span, else of the turn's first span that has one, else of any span of the trace.
   */
  private static String session(
      TraceSpan agentSpan, List<TraceSpan> members, List<TraceSpan> trace) {
    String s = agentSpan == null ? null : sessionOf(agentSpan);
    for (int i = 0; s == null && i < members.size(); i++) {
      s = sessionOf(members.get(i));
    }
    for (int i = 0; s == null && i < trace.size(); i++) {
      s = sessionOf(trace.get(i));
    }
    return s;
  }

  private static String sessionOf(TraceSpan s) {
    return s.attr("gen_ai.conversation.id", "session.id");
  }
}
