package dev.vigil.observe.writer;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.observe.CallPayload;
import dev.vigil.observe.EventEncoder;
import dev.vigil.observe.SmileOut;
import dev.vigil.observe.ToolKind;
import dev.vigil.observe.agent.AgentConfig;
import dev.vigil.observe.agent.Redaction;
import dev.vigil.observe.agent.TimeSource;
import dev.vigil.observe.capture.Captured;
import dev.vigil.observe.capture.CapturedCall;
import dev.vigil.observe.capture.CapturedTurn;
import dev.vigil.observe.capture.Site;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;

/**
 * Encodes the event of one captured call (docs/DESIGN.md, "The event"): kind, status, the payload
 * with arguments by parameter name, result, duration and error, redaction and the size limit
 * applied before anything reaches the queue; the two sides of a turn ({@code turn.user}, {@code
 * turn.answer}) likewise, with the same redaction and size limit on their text. The payload is
 * written field by field into the thread's {@link EventEncoder}, never built as a tree (the tree
 * and its encoding were most of the writer thread's time and garbage). Thread-safe: the writer
 * thread uses it, and so does a calling thread that appends its own event when the hand-off is full
 * ({@link EventLog}), each with an encoder of its own.
 */
final class EventAssembler {
  /** Frames kept of an error's root cause. */
  static final int MAX_FRAMES = 8;

  /**
   * Jackson's mapper for a framework's raw JSON arguments, made on first use: building one takes
   * over 100 ms, and the application's first tool classes wait for the writer to be built
   * (start-up).
   */
  private static final class Json {
    static final ObjectMapper MAPPER = new ObjectMapper();
  }

  private static final byte[] ERROR = SmileOut.nameBytes("error");
  private static final byte[] TEXT = SmileOut.nameBytes("text");
  private static final byte[] TOOL_CALLS = SmileOut.nameBytes("tool_calls");

  /**
   * What never changes from one call of a site to the next, encoded once: its tool name (as the
   * value of {@code tool}, for a tool method) and whether it is the method's, whether its kind is
   * its tool's ({@link ToolKind#of}, so that the excerpt can leave it out), its parameter names and
   * which of them are secrets, and the values of its {@code class} and {@code method}.
   */
  // arrays on purpose: encoded bytes built once, private to this class and never changed or
  // compared
  @SuppressWarnings("ArrayRecordComponent")
  private record SiteBytes(
      Site site,
      byte[] toolName,
      boolean toolIsMethod,
      boolean kindOfTool,
      boolean[] secret,
      byte[][] names,
      byte[] classAndMethod) {
    static SiteBytes of(Site site, Redaction redaction) {
      List<String> names = site.paramNames();
      boolean[] secret = new boolean[names.size()];
      byte[][] encoded = new byte[names.size()][];
      for (int i = 0; i < secret.length; i++) {
        secret[i] = redaction.isSecretName(names.get(i));
        encoded[i] = SmileOut.nameBytes(names.get(i));
      }
      SmileOut out = new SmileOut();
      out.string(site.className());
      out.string(site.method());
      String tool = site.toolName() != null ? site.toolName() : site.method();
      return new SiteBytes(
          site,
          SmileOut.stringBytes(tool),
          tool.equals(site.method()),
          ToolKind.of(tool).equals(site.kind()),
          secret,
          encoded,
          out.toByteArray());
    }
  }

  private final Redaction redaction;
  private final ValueWriter values;
  private final boolean captureResult;
  private final WallClock clock;

  /** By site id; replaced whole when a site is added, so a reader sees complete entries. */
  private volatile SiteBytes[] siteBytes = new SiteBytes[0];

  EventAssembler(AgentConfig config) {
    this(config, TimeSource.SYSTEM);
  }

  /** An assembler that turns monotonic readings into event times with {@code time}. */
  EventAssembler(AgentConfig config, TimeSource time) {
    this.clock = new WallClock(time);
    this.redaction = config.redaction();
    this.values = new ValueWriter(redaction, config.maxChars());
    this.captureResult = config.captureResult();
  }

  /**
   * Encodes the event of a tool call or of one side of a turn, everything but {@code seq}; any
   * thread.
   */
  void encode(Captured captured, EventEncoder encoder, String agent, long pid) {
    if (captured instanceof CapturedCall call) {
      encode(call, encoder, agent, pid);
    } else {
      encode((CapturedTurn) captured, encoder, agent, pid);
    }
  }

  /** A tool call, its payload in the short form ({@link CallPayload}). */
  private void encode(CapturedCall call, EventEncoder encoder, String agent, long pid) {
    Site site = call.site();
    boolean frameworkOnly = site.role().isFramework();
    String toolName = toolName(call);
    SiteBytes constant = siteBytes(site);
    boolean failed = call.thrown() != null || call.errorResult();
    boolean hasArgs = frameworkOnly ? call.frameworkArgs() != null : call.args() != null;
    boolean hasResult = captureResult && !failed;
    boolean toolIsMethod = frameworkOnly ? toolName.equals(site.method()) : constant.toolIsMethod();
    SmileOut out =
        encoder
            .begin()
            .callPayload(
                (toolIsMethod ? 0 : CallPayload.TOOL)
                    | (hasArgs ? CallPayload.ARGS : 0)
                    | (hasResult ? CallPayload.RESULT : 0)
                    | (failed ? CallPayload.ERROR : 0));
    if (!toolIsMethod) {
      if (frameworkOnly) {
        out.string(toolName);
      } else {
        out.raw(constant.toolName());
      }
    }
    if (hasArgs) {
      if (frameworkOnly) {
        frameworkArgs(call.frameworkArgs(), site, out);
      } else {
        args(call.args(), site, constant, out);
      }
    }
    if (hasResult) {
      values.write(call.result(), false, site, -1, out);
    }
    out.number(durationMicros(call.endNanos() - call.startNanos()));
    encoder.constant(constant.classAndMethod()); // the same for every call of the site
    String status = "ok";
    if (call.thrown() != null) {
      error(call.thrown(), out);
      status = isTimeout(call.thrown()) ? "timeout" : "fail";
    } else if (call.errorResult()) {
      out.startObject();
      out.name("type");
      out.string("tool_error");
      out.name("message");
      out.string(values.cut(redaction.text(call.errorText()), null, 0));
      out.endObject();
      status = "fail";
    }
    // null: the kind is the tool's, and the reader derives it (a framework's call always has it)
    String kind = frameworkOnly || constant.kindOfTool() ? null : site.kind();
    head(
        encoder,
        call.startNanos(),
        kind,
        status,
        agent,
        pid,
        call.thread(),
        call.turn(),
        call.callId(),
        call.session());
  }

  /**
   * One side of a turn: {@code turn.user} with payload {@code {text}}, {@code turn.answer} with
   * {@code {text, tool_calls}} (and {@code error} when the framework call threw, status {@code
   * fail}).
   */
  private void encode(CapturedTurn side, EventEncoder encoder, String agent, long pid) {
    SmileOut out = encoder.begin().payload();
    out.startObject();
    out.raw(TEXT);
    out.string(values.text(side.text()));
    boolean failed = false;
    if (side.kind().equals(CapturedTurn.ANSWER)) {
      out.raw(TOOL_CALLS);
      out.number(side.toolCalls());
      if (side.thrown() != null) {
        out.raw(ERROR);
        error(side.thrown(), out);
        failed = true;
      }
    }
    out.endObject();
    head(
        encoder,
        side.nanos(),
        side.kind(),
        failed ? "fail" : "ok",
        agent,
        pid,
        side.thread(),
        side.turn(),
        null,
        side.session());
  }

  /**
   * The fields around the payload; a session id passes the redaction patterns (an id could be a
   * key), uncut.
   */
  private void head(
      EventEncoder encoder,
      long nanoTime,
      String kind,
      String status,
      String agent,
      long pid,
      String thread,
      String turn,
      String callId,
      String session) {
    long ts = clock.epochNanos(nanoTime);
    encoder.head(
        Math.floorDiv(ts, 1_000_000_000L),
        (int) Math.floorMod(ts, 1_000_000_000L),
        kind,
        status,
        agent,
        pid,
        thread,
        turn,
        callId,
        session == null ? null : redaction.text(session));
  }

  /**
   * Microseconds, rounded half up: {@code Math.round(nanos / 1000.0)}, in integers; {@code
   * duration_ms} is {@link CallPayload#durationMs} of them.
   */
  static long durationMicros(long nanos) {
    return nanos >= 0 ? (nanos + 500) / 1_000 : Math.round(nanos / 1_000.0);
  }

  /**
   * The tool's name: the framework's when no tool method ran beneath it, else the annotation's or
   * the method's.
   */
  private static String toolName(CapturedCall call) {
    Site site = call.site();
    String toolName =
        call.toolName() != null && site.role().isFramework() ? call.toolName() : site.toolName();
    return toolName != null ? toolName : site.method();
  }

  private void args(Object[] args, Site site, SiteBytes constant, SmileOut out) {
    byte[][] names = constant.names();
    boolean[] secret = constant.secret();
    out.startObject();
    for (int i = 0; i < args.length; i++) {
      if (i < names.length) {
        out.raw(names[i]);
        values.write(args[i], secret[i], site, i, out);
      } else {
        String name = "arg" + i;
        out.name(name);
        values.write(args[i], redaction.isSecretName(name), site, i, out);
      }
    }
    out.endObject();
  }

  /** The encoded constants of a site, worked out on its first call. */
  // by identity on purpose: a site is one object per tool method, and its slot must hold that very
  // site
  @SuppressWarnings("ReferenceEquality")
  private SiteBytes siteBytes(Site site) {
    SiteBytes[] table = siteBytes;
    int id = site.id();
    if (id >= 0 && id < table.length && table[id] != null && table[id].site() == site) {
      return table[id];
    }
    SiteBytes made = SiteBytes.of(site, redaction);
    if (id >= 0) {
      synchronized (this) {
        SiteBytes[] t = Arrays.copyOf(siteBytes, Math.max(siteBytes.length, id + 1));
        t[id] = made;
        siteBytes = t;
      }
    }
    return made;
  }

  private void frameworkArgs(String raw, Site site, SmileOut out) {
    try {
      JsonNode tree = Json.MAPPER.readTree(raw);
      if (tree != null && tree.isObject()) {
        values.write(tree, false, site, 0, out);
        return;
      }
    } catch (Exception notJson) {
      // recorded as text below
    }
    out.startObject();
    out.name("input");
    values.write(raw, false, site, 0, out);
    out.endObject();
  }

  private void error(Throwable thrown, SmileOut out) {
    out.startObject();
    out.name("type");
    out.string(thrown.getClass().getName());
    String message;
    try {
      message = thrown.getMessage();
    } catch (Throwable t) {
      message = "<getMessage threw " + t.getClass().getName() + ">";
    }
    out.name("message");
    out.string(message == null ? null : values.cut(redaction.text(message), null, 0));
    out.name("frames");
    out.startArray();
    StackTraceElement[] frames = rootCause(thrown).getStackTrace();
    for (int i = 0; i < frames.length && i < MAX_FRAMES; i++) {
      out.string(frame(frames[i]));
    }
    out.endArray();
    out.endObject();
  }

  static String frame(StackTraceElement e) {
    String file = e.getFileName();
    String where =
        file == null
            ? "Unknown Source"
            : e.getLineNumber() >= 0 ? file + ":" + e.getLineNumber() : file;
    return e.getClassName() + "." + e.getMethodName() + "(" + where + ")";
  }

  /** The deepest cause: where the fault is. */
  static Throwable rootCause(Throwable t) {
    IdentityHashMap<Throwable, Boolean> seen = new IdentityHashMap<>();
    Throwable cur = t;
    while (cur.getCause() != null && seen.put(cur, Boolean.TRUE) == null) {
      cur = cur.getCause();
    }
    return cur;
  }

  /**
   * A timeout (docs/DESIGN.md, "The event") is a {@code TimeoutException}, {@code
   * SocketTimeoutException}, {@code HttpTimeoutException} or any type whose simple name contains
   * {@code Timeout}, anywhere in the cause chain.
   */
  static boolean isTimeout(Throwable t) {
    IdentityHashMap<Throwable, Boolean> seen = new IdentityHashMap<>();
    for (Throwable cur = t;
        cur != null && seen.put(cur, Boolean.TRUE) == null;
        cur = cur.getCause()) {
      for (Class<?> c = cur.getClass(); c != null && c != Throwable.class; c = c.getSuperclass()) {
        if (c.getSimpleName().contains("Timeout")) {
          return true;
        }
      }
    }
    return false;
  }
}
