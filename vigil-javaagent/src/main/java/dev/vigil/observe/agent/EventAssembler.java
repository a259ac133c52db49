package dev.vigil.observe.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.vigil.observe.Event;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds the event of one captured call (SPEC section 2): kind, status, the payload with arguments by parameter name,
 * result, duration and error, redaction and the size limit applied before anything reaches the queue; the two sides
 * of a turn ({@code turn.user}, {@code turn.answer}) likewise, with the same redaction and size limit on their text.
 * Stateless
 * apart from the thread-safe {@link WallClock}: the writer thread uses it, and so does a calling thread that appends
 * its own event when the hand-off is full ({@link EventLog}).
 */
final class EventAssembler {
  /** Frames kept of an error's root cause. */
  static final int MAX_FRAMES = 8;

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  /**
   * Jackson's mapper for a framework's raw JSON arguments, made on first use: building one takes over 100 ms, and
   * the application's first tool classes wait for the writer to be built (start-up, issue 19).
   */
  private static final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
  }

  private final Redaction redaction;
  private final int maxChars;
  private final boolean captureResult;
  private final WallClock clock = new WallClock();

  EventAssembler(AgentConfig config) {
    this.redaction = config.redaction();
    this.maxChars = config.maxChars();
    this.captureResult = config.captureResult();
  }

  /** The event of {@code call}, stamped with the writer's origin fields. */
  Event assemble(CapturedCall call, String agent, long seq, long pid) {
    return event(call, payload(call), agent, seq, pid);
  }

  /**
   * The payload of {@code call}'s event: the costly part, built before the queue's write lock is taken. Any thread.
   */
  ObjectNode payload(CapturedCall call) {
    Site site = call.site();
    boolean frameworkOnly = site.role().isFramework();
    ObjectNode payload = NODES.objectNode();
    payload.put("tool", toolName(call));
    if (frameworkOnly) {
      if (call.frameworkArgs() != null) {
        payload.set("args", frameworkArgs(call.frameworkArgs(), site));
      }
    } else if (call.args() != null) {
      payload.set("args", args(call.args(), site));
    }
    if (captureResult && call.thrown() == null && !call.errorResult()) {
      payload.set("result", value(call.result(), false, site, -1));
    }
    payload.put("duration_ms", Math.round((call.endNanos() - call.startNanos()) / 1_000.0) / 1_000.0);
    payload.put("class", site.className());
    payload.put("method", site.method());
    if (call.thrown() != null) {
      payload.set("error", error(call.thrown()));
    } else if (call.errorResult()) {
      ObjectNode error = NODES.objectNode();
      error.put("type", "tool_error");
      error.put("message", cut(redaction.text(call.errorText()), null, 0));
      payload.set("error", error);
    }
    return payload;
  }

  /**
   * The event of {@code call} around its {@link #payload}: cheap, so that it can be built while the queue's write
   * lock is held, where {@code seq} is taken. Any thread.
   */
  Event event(CapturedCall call, ObjectNode payload, String agent, long seq, long pid) {
    Site site = call.site();
    String kind = site.role().isFramework() ? KindOverrides.toolKind(toolName(call)) : site.kind();
    String status = "ok";
    if (call.thrown() != null) {
      status = isTimeout(call.thrown()) ? "timeout" : "fail";
    } else if (call.errorResult()) {
      status = "fail";
    }
    return new Event(clock.instant(call.startNanos()), kind, status, payload, agent, seq, pid, call.thread(),
        call.turn(), call.callId(), session(call.session()));
  }

  /**
   * The event of one side of a turn: {@code turn.user} with payload {@code {text}}, {@code turn.answer} with
   * {@code {text, tool_calls}} (and {@code error} when the framework call threw, status {@code fail}).
   */
  Event assemble(CapturedTurn side, String agent, long seq, long pid) {
    return event(side, payload(side), agent, seq, pid);
  }

  /** The payload of one side of a turn: {@code {text}}, or {@code {text, tool_calls[, error]}} for the answer. */
  ObjectNode payload(CapturedTurn side) {
    ObjectNode payload = NODES.objectNode();
    payload.put("text", text(side.text()));
    if (side.kind().equals(CapturedTurn.ANSWER)) {
      payload.put("tool_calls", side.toolCalls());
      if (side.thrown() != null) {
        payload.set("error", error(side.thrown()));
      }
    }
    return payload;
  }

  /** The event of one side of a turn around its {@link #payload(CapturedTurn) payload}; cheap, any thread. */
  Event event(CapturedTurn side, ObjectNode payload, String agent, long seq, long pid) {
    String status = side.kind().equals(CapturedTurn.ANSWER) && side.thrown() != null ? "fail" : "ok";
    return new Event(clock.instant(side.nanos()), side.kind(), status, payload, agent, seq, pid, side.thread(),
        side.turn(), null, session(side.session()));
  }

  /** A captured text as one string: redacted, cut to the size limit; an object's JSON as its text. */
  private String text(Object snapshot) {
    if (snapshot == null) {
      return null;
    }
    JsonNode v = value(snapshot, false, null, 0);
    return v.isTextual() ? v.textValue() : cut(v.toString(), null, 0);
  }

  /** A session id passes the redaction patterns (an id could be a key), but is never cut. */
  private String session(String session) {
    return session == null ? null : redaction.text(session);
  }

  /** The tool's name: the framework's when no tool method ran beneath it, else the annotation's or the method's. */
  private static String toolName(CapturedCall call) {
    Site site = call.site();
    String toolName = call.toolName() != null && site.role().isFramework() ? call.toolName() : site.toolName();
    return toolName != null ? toolName : site.method();
  }

  private ObjectNode args(Object[] args, Site site) {
    ObjectNode out = NODES.objectNode();
    List<String> names = site.paramNames();
    for (int i = 0; i < args.length; i++) {
      String name = i < names.size() ? names.get(i) : "arg" + i;
      out.set(name, value(args[i], redaction.isSecretName(name), site, i));
    }
    return out;
  }

  private JsonNode frameworkArgs(String raw, Site site) {
    try {
      JsonNode tree = Json.MAPPER.readTree(raw);
      if (tree != null && tree.isObject()) {
        return value(tree, false, site, 0);
      }
    } catch (Exception notJson) {
      // recorded as text below
    }
    ObjectNode out = NODES.objectNode();
    out.set("input", value(raw, false, site, 0));
    return out;
  }

  /** One captured value as JSON: masked when secret, patterns redacted, cut to the size limit. */
  JsonNode value(Object v, boolean secret, Site site, int index) {
    if (v == null) {
      return NODES.nullNode();
    }
    if (secret) {
      return TextNode.valueOf(Redaction.MASK);
    }
    if (v instanceof String s) {
      return TextNode.valueOf(cut(redaction.text(s), site, index));
    }
    if (v instanceof Boolean b) {
      return NODES.booleanNode(b);
    }
    if (v instanceof Integer n) {
      return NODES.numberNode(n);
    }
    if (v instanceof Long n) {
      return NODES.numberNode(n);
    }
    if (v instanceof Double n) {
      return NODES.numberNode(n);
    }
    if (v instanceof Float n) {
      return NODES.numberNode(n);
    }
    if (v instanceof Short n) {
      return NODES.numberNode(n);
    }
    if (v instanceof Byte n) {
      return NODES.numberNode(n);
    }
    if (v instanceof BigInteger n) {
      return NODES.numberNode(n);
    }
    if (v instanceof BigDecimal n) {
      return NODES.numberNode(n);
    }
    if (v instanceof JsonNode tree) {
      JsonNode redacted = redaction.tree(tree);
      if (redacted.isTextual()) {
        return TextNode.valueOf(cut(redacted.textValue(), site, index));
      }
      if (redacted.isContainerNode()) {
        String json = redacted.toString();
        if (json.length() > maxChars) {
          return TextNode.valueOf(cut(json, site, index));
        }
      }
      return redacted;
    }
    if (v instanceof ValueCapture.Unreadable u) {
      return TextNode.valueOf(u.text());
    }
    return TextNode.valueOf(cut(redaction.text(String.valueOf(v)), site, index));
  }

  /** {@code text} cut to the size limit and marked {@code …(+N chars)}. */
  String cut(String text, Site site, int index) {
    if (text == null || text.length() <= maxChars) {
      return text;
    }
    int end = maxChars;
    if (Character.isHighSurrogate(text.charAt(end - 1))) {
      end--;
    }
    if (site != null) {
      Stderr.warn("cut", ValueCapture.describe(site, index) + " has " + text.length() + " chars; recorded cut to "
          + end + " (vigil.capture.max-chars)");
    }
    return text.substring(0, end) + "…(+" + (text.length() - end) + " chars)";
  }

  private ObjectNode error(Throwable thrown) {
    ObjectNode error = NODES.objectNode();
    error.put("type", thrown.getClass().getName());
    String message;
    try {
      message = thrown.getMessage();
    } catch (Throwable t) {
      message = "<getMessage threw " + t.getClass().getName() + ">";
    }
    error.put("message", message == null ? null : cut(redaction.text(message), null, 0));
    ArrayNode frames = error.putArray("frames");
    for (StackTraceElement e : rootCause(thrown).getStackTrace()) {
      if (frames.size() == MAX_FRAMES) {
        break;
      }
      frames.add(frame(e));
    }
    return error;
  }

  static String frame(StackTraceElement e) {
    String file = e.getFileName();
    String where = file == null ? "Unknown Source" : e.getLineNumber() >= 0 ? file + ":" + e.getLineNumber() : file;
    return e.getClassName() + "." + e.getMethodName() + "(" + where + ")";
  }

  /** The deepest cause: where the fault is. */
  static Throwable rootCause(Throwable t) {
    Map<Throwable, Boolean> seen = new IdentityHashMap<>();
    Throwable cur = t;
    while (cur.getCause() != null && seen.put(cur, Boolean.TRUE) == null) {
      cur = cur.getCause();
    }
    return cur;
  }

  /**
   * SPEC section 2: a timeout is a {@code TimeoutException}, {@code SocketTimeoutException},
   * {@code HttpTimeoutException} or any type whose simple name contains {@code Timeout}, anywhere in the cause chain.
   */
  static boolean isTimeout(Throwable t) {
    Map<Throwable, Boolean> seen = new IdentityHashMap<>();
    for (Throwable cur = t; cur != null && seen.put(cur, Boolean.TRUE) == null; cur = cur.getCause()) {
      for (Class<?> c = cur.getClass(); c != null && c != Throwable.class; c = c.getSuperclass()) {
        if (c.getSimpleName().contains("Timeout")) {
          return true;
        }
      }
    }
    return false;
  }
}
