package dev.vigil.ingest.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.observe.Event;
import dev.vigil.observe.ToolKind;
import java.time.Instant;

/**
 * The tool event of a tool span (docs/OPENTELEMETRY.md#traces-in): the same kind, payload and
 * status the agent records for a call of the same tool.
 */
final class ToolSpans {
  /** Skip reason of a tool span that names no tool. */
  static final String WITHOUT_NAME = "otlp_tool_without_name";

  private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
  private static final int MAX_FRAMES = 8;

  private ToolSpans() {}

  /** The tool's name, or null. */
  static String toolName(TraceSpan s) {
    String name = s.attr("gen_ai.tool.name", "tool.name", "spring.ai.tool.definition.name");
    if (name == null && s.name().startsWith("execute_tool ")) {
      name = s.name().substring("execute_tool ".length()).strip();
    }
    return name == null || name.isEmpty() ? null : name;
  }

  /**
   * The tool call the span records, framed by its turn.
   *
   * @param tool the tool's name ({@link #toolName})
   */
  static Event event(TraceSpan s, String tool, Turns.Frame frame) {
    ObjectNode payload = JSON.objectNode();
    payload.put("tool", tool);
    payload.set(
        "args",
        args(s.attr("gen_ai.tool.call.arguments", "spring.ai.tool.call.arguments", "input.value")));
    ObjectNode error = error(s);
    String result = s.attr("gen_ai.tool.call.result", "spring.ai.tool.call.result", "output.value");
    if (error == null && result != null) {
      JsonNode r = Messages.json(result);
      payload.set("result", r != null ? r : JSON.textNode(result));
    }
    payload.put("duration_ms", durationMs(s.endNanos() - s.startNanos()));
    payload.set("otel", otel(s));
    String status = "ok";
    if (error != null) {
      payload.set("error", error);
      status = isTimeout(error.path("type").asText()) ? "timeout" : "fail";
    }
    return new Event(
        instant(s.startNanos()),
        ToolKind.of(tool),
        status,
        payload,
        frame.agent(),
        null,
        null,
        null,
        frame.turn(),
        s.attr("gen_ai.tool.call.id", "tool_call.id", "tool.id", "spring.ai.tool.call.id"),
        frame.session());
  }

  /**
   * Where an event came from: {@code {trace_id, span_id}}, hex, to find the span in a tracing
   * backend, and what makes the event's identity ({@link dev.vigil.ingest.EventIdentity#ofSpan}).
   */
  static ObjectNode otel(TraceSpan s) {
    ObjectNode otel = JSON.objectNode();
    otel.put("trace_id", s.traceId());
    otel.put("span_id", s.spanId());
    return otel;
  }

  /** The arguments: a JSON object as it is, anything else as {@code {input}}, as the agent does. */
  private static ObjectNode args(String raw) {
    if (raw == null) {
      return JSON.objectNode();
    }
    JsonNode j = Messages.json(raw);
    if (j instanceof ObjectNode o) {
      return o;
    }
    ObjectNode wrapped = JSON.objectNode();
    wrapped.put("input", raw);
    return wrapped;
  }

  /**
   * The error of a failed span: status ERROR or an {@code error.type}; its type and message from
   * {@code error.type} and the span's {@code exception} event, its frames from the root cause of
   * the event's stack trace.
   */
  static ObjectNode error(TraceSpan s) {
    TraceSpan.SpanEvent exception = s.event("exception");
    String errorType = s.attr("error.type");
    if (!s.error() && errorType == null) {
      return null;
    }
    String type = errorType;
    String message = s.statusMessage().isBlank() ? null : s.statusMessage();
    String stack = null;
    if (exception != null) {
      type = type != null ? type : blankToNull(exception.attributes().get("exception.type"));
      String m = blankToNull(exception.attributes().get("exception.message"));
      message = m != null ? m : message;
      stack = exception.attributes().get("exception.stacktrace");
    }
    ObjectNode error = JSON.objectNode();
    error.put("type", type != null ? type : "error");
    error.put("message", message);
    ArrayNode frames = error.putArray("frames");
    for (String f : rootFrames(stack)) {
      frames.add(f);
    }
    return error;
  }

  /** The first frames of the last cause of a Java stack trace as text, or none. */
  private static java.util.List<String> rootFrames(String stack) {
    java.util.List<String> out = new java.util.ArrayList<>();
    if (stack == null) {
      return out;
    }
    String[] lines = stack.split("\n");
    int from = 0;
    for (int i = 0; i < lines.length; i++) {
      if (lines[i].strip().startsWith("Caused by:")) {
        from = i + 1;
      }
    }
    for (int i = from; i < lines.length && out.size() < MAX_FRAMES; i++) {
      String l = lines[i].strip();
      if (l.startsWith("at ")) {
        out.add(l.substring(3).strip());
      } else if (l.startsWith("Caused by:")) {
        break;
      }
    }
    return out;
  }

  /** A timeout, as the agent tells one: the type's simple name contains {@code Timeout}. */
  static boolean isTimeout(String type) {
    int dot = type.lastIndexOf('.');
    return type.substring(dot + 1).contains("Timeout");
  }

  /** Milliseconds to the microsecond, rounded half up, as the agent writes them. */
  static double durationMs(long nanos) {
    long micros = nanos >= 0 ? (nanos + 500) / 1_000 : Math.round(nanos / 1_000.0);
    return micros / 1_000.0;
  }

  static Instant instant(long epochNanos) {
    return Instant.ofEpochSecond(
        Math.floorDiv(epochNanos, 1_000_000_000L), Math.floorMod(epochNanos, 1_000_000_000L));
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }
}
