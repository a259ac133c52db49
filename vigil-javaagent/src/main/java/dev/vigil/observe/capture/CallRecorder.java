package dev.vigil.observe.capture;

import dev.vigil.observe.agent.AgentConfig;
import dev.vigil.observe.agent.ProcessId;
import dev.vigil.observe.agent.TimeSource;
import dev.vigil.observe.bridge.Recorder;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs on the application's threads: keeps the per-thread {@link Frame} stack, merges a framework's
 * tool call with the tool method beneath it, assigns turns (with the {@link TurnRecorder}),
 * sessions and call ids, snapshots arguments and results, and hands each finished call to the
 * {@link CaptureSink} (the event writer). It does as little as it can here; building and writing
 * the event happens on the writer thread.
 */
public final class CallRecorder implements Recorder {
  private final Sites sites;
  private final CaptureSink writer;
  private final TimeSource time;
  private final ValueCapture capture = new ValueCapture();
  private final TurnRecorder turns;
  private final boolean captureArgs;
  private final boolean captureResult;

  /**
   * The thread's stack of frames; a frame keeps its stack, so that {@link #exit} need not look it
   * up.
   */
  private final ThreadLocal<Frame.Stack> stacks =
      new ThreadLocal<>() { // not withInitial: Vigil's start links no lambda (docs/DESIGN.md)
        @Override
        protected Frame.Stack initialValue() {
          return new Frame.Stack();
        }
      };

  private final AtomicLong generatedIds = new AtomicLong();

  /**
   * The prefix of the ids this recorder makes, from the pid; made on first use, so that building
   * the recorder does not wait for the JDK's process machinery (the writer thread starts it).
   */
  private volatile String idPrefix;

  /**
   * A recorder for the instrumented methods in {@code sites}, of which those of a framework are in
   * {@code frameworks}.
   */
  public CallRecorder(
      Sites sites, CaptureSink writer, AgentConfig config, List<Framework> frameworks) {
    this(sites, writer, config, frameworks, TimeSource.SYSTEM);
  }

  /** The same, reading the time of calls from {@code time}. */
  public CallRecorder(
      Sites sites,
      CaptureSink writer,
      AgentConfig config,
      List<Framework> frameworks,
      TimeSource time) {
    this.sites = sites;
    this.writer = writer;
    this.time = time;
    this.captureArgs = config.captureArgs();
    this.captureResult = config.captureResult();
    this.turns = new TurnRecorder(writer, config, frameworks, capture);
  }

  /**
   * Loads what capturing an object (as a JSON tree) needs, ahead of the first call that does it.
   */
  public void prepareCapture() {
    capture.prepare();
  }

  @Override
  public Object enter(int siteId, Object self, Object[] args) {
    Site site = sites.get(siteId);
    if (site == null) {
      return null;
    }
    Frame.Stack stack = stacks.get();
    Frame current = stack.top;
    long now = time.nanoTime();
    switch (site.role()) {
      case TOOL -> {
        Frame.Tool f = new Frame.Tool(current, site, now, captureArgs(site, args));
        if (current instanceof Frame.FrameworkTool fw && fw.inner == null) {
          fw.inner = f;
          f.merged = true;
        }
        stack.push(f);
        return f;
      }
      case FRAMEWORK_TOOL -> {
        if (current instanceof Frame.FrameworkTool fw && fw.inner == null) {
          fw.depth++;
          return fw;
        }
        Frame.FrameworkTool f = new Frame.FrameworkTool(current, site, now);
        describe(f, self, args, current);
        stack.push(f);
        return f;
      }
      case TURN, TURN_CONTEXT -> {
        Frame f = turns.enter(site, current, self, args, now);
        if (f != null && f != current) {
          stack.push(f);
        }
        return f;
      }
      case TOOL_CALLS -> {
        Frame.ToolCalls f =
            new Frame.ToolCalls(current, now, site.framework().pendingToolCalls(self, args));
        stack.push(f);
        return f;
      }
      default -> {
        return null;
      }
    }
  }

  @Override
  public void exit(int siteId, Object frameObject, Object result, Throwable thrown) {
    Frame frame = (Frame) frameObject;
    if (--frame.depth > 0) {
      return;
    }
    frame.pop();
    long end = time.nanoTime();
    if (frame instanceof Frame.Tool t) {
      t.result = captureResult && thrown == null ? capture.capture(result, t.site, -1) : null;
      t.thrown = thrown;
      if (!t.merged) {
        Frame.Turn turn = turns.of(t.parent, null);
        String turnId = turn == null ? null : turns.callIn(turn, null);
        String session = turn == null ? null : turn.session;
        writer.submit(
            new CapturedCall(
                t.site,
                t.startNanos,
                end,
                Thread.currentThread().getName(),
                t.args,
                t.result,
                thrown,
                turnId,
                session,
                null,
                null,
                null,
                false,
                null));
      }
    } else if (frame instanceof Frame.FrameworkTool f) {
      finishFramework(f, end, result, thrown);
    } else if (frame instanceof Frame.Turn t) {
      turns.exit(t, result, thrown, end);
    }
  }

  private void finishFramework(Frame.FrameworkTool f, long end, Object result, Throwable thrown) {
    Framework framework = f.site.framework();
    Framework.ToolResult returned = result == null ? null : framework.toolResult(result);
    boolean errorResult = returned != null && returned.error();
    String resultText = returned == null ? null : returned.text();
    String errorText = errorResult ? resultText : null;
    String invocationId = f.described.invocationId();
    Frame.Turn enclosing = turns.of(f.parent, invocationId);
    String turn = enclosing == null ? invocationId : turns.callIn(enclosing, invocationId);
    // outside a turn of this thread, the framework's own context may still name the conversation
    String session = enclosing != null ? enclosing.session : framework.session(f.described);
    String thread = Thread.currentThread().getName();
    Frame.Tool inner = f.inner;
    if (inner != null) {
      Throwable cause = inner.thrown != null ? inner.thrown : thrown;
      writer.submit(
          new CapturedCall(
              inner.site,
              f.startNanos,
              end,
              thread,
              inner.args,
              inner.result,
              cause,
              turn,
              session,
              f.callId,
              f.described.toolName(),
              null,
              errorResult,
              errorText));
    } else {
      Object captured = captureResult && thrown == null ? resultText : null;
      writer.submit(
          new CapturedCall(
              f.site,
              f.startNanos,
              end,
              thread,
              null,
              captured,
              thrown,
              turn,
              session,
              f.callId,
              f.described.toolName(),
              captureArgs ? f.described.rawArgs() : null,
              errorResult,
              errorText));
    }
  }

  /**
   * What the framework tells of the call; its id is the framework's, else the one the model gave it
   * when a batch of tool calls is running, else one of Vigil's own.
   */
  private void describe(Frame.FrameworkTool f, Object self, Object[] args, Frame current) {
    Framework.ToolCall call = f.site.framework().toolCall(self, args);
    f.described = call;
    f.callId = call.callId() != null ? call.callId() : modelCallId(current, call.toolName());
    if (f.callId == null) {
      f.callId = idPrefix() + generatedIds.incrementAndGet();
    }
  }

  private String idPrefix() {
    String p = idPrefix;
    if (p == null) {
      p = "vigil-" + Long.toString(ProcessId.current(), 36) + "-";
      idPrefix = p;
    }
    return p;
  }

  /** The id the model gave this tool call, when a framework's batch of tool calls is running it. */
  private static String modelCallId(Frame current, String toolName) {
    Frame.ToolCalls calls = Frame.nearest(current, Frame.ToolCalls.class);
    if (calls == null) {
      return null;
    }
    for (Iterator<Framework.ToolCallRef> it = calls.pending.iterator(); it.hasNext(); ) {
      Framework.ToolCallRef ref = it.next();
      if (ref.name() != null && ref.name().equals(toolName)) {
        it.remove();
        return ref.id();
      }
    }
    return null;
  }

  /**
   * The snapshots of the arguments, taken in place: the array is the one the woven code built for
   * this call alone (a new array on every call), so nothing else sees it.
   */
  private Object[] captureArgs(Site site, Object[] args) {
    if (!captureArgs || args == null) {
      return null;
    }
    for (int i = 0; i < args.length; i++) {
      args[i] = capture.capture(args[i], site, i);
    }
    return args;
  }
}
