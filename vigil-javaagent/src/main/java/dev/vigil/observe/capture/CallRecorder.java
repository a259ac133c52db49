package dev.vigil.observe.capture;

import dev.vigil.observe.agent.AgentConfig;
import dev.vigil.observe.bridge.Recorder;
import dev.vigil.observe.writer.EventWriter;
import java.util.Iterator;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs on the application's threads: keeps the per-thread {@link Frame} stack, merges a framework's tool call with
 * the tool method beneath it, assigns turns (with the {@link TurnRecorder}), sessions and call ids, snapshots
 * arguments and results, and hands each finished call to the {@link EventWriter}. It does as little as it can here;
 * building and writing the event happens on the writer thread.
 */
public final class CallRecorder implements Recorder {
  private final Sites sites;
  private final EventWriter writer;
  private final ValueCapture capture = new ValueCapture();
  private final FrameworkAccess access = new FrameworkAccess();
  private final TurnRecorder turns;
  private final boolean captureArgs;
  private final boolean captureResult;
  /** The thread's stack of frames; a frame keeps its stack, so that {@link #exit} need not look it up. */
  private final ThreadLocal<Frame.Stack> stacks = ThreadLocal.withInitial(Frame.Stack::new);
  private final AtomicLong generatedIds = new AtomicLong();
  private final String idPrefix = "vigil-" + Long.toString(ProcessHandle.current().pid(), 36) + "-";

  /** A recorder for the instrumented methods in {@code sites}. */
  public CallRecorder(Sites sites, EventWriter writer, AgentConfig config) {
    this.sites = sites;
    this.writer = writer;
    this.captureArgs = config.captureArgs();
    this.captureResult = config.captureResult();
    this.turns = new TurnRecorder(writer, config, access, capture);
  }

  /** Loads what capturing an object (as a JSON tree) needs, ahead of the first call that does it. */
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
    long now = System.nanoTime();
    switch (site.role()) {
      case TOOL -> {
        Frame.Tool f = new Frame.Tool(current, site, now, captureArgs(site, args));
        if (current instanceof Frame.Framework fw && fw.inner == null) {
          fw.inner = f;
          f.merged = true;
        }
        stack.push(f);
        return f;
      }
      case LANGCHAIN4J_EXECUTOR, SPRING_AI_CALLBACK -> {
        if (current instanceof Frame.Framework fw && fw.inner == null) {
          fw.depth++;
          return fw;
        }
        Frame.Framework f = new Frame.Framework(current, site, now);
        describe(f, site.role(), self, args, current);
        stack.push(f);
        return f;
      }
      case LANGCHAIN4J_TURN, LANGCHAIN4J_INVOCATION, SPRING_AI_TURN -> {
        Frame f = turns.enter(site, current, self, args, now);
        if (f != null && f != current) {
          stack.push(f);
        }
        return f;
      }
      case SPRING_AI_TOOL_CALLS -> {
        Object message = args != null && args.length > 1 ? args[1] : null;
        Frame.ToolCalls f = new Frame.ToolCalls(current, now, access.toolCalls(message));
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
    long end = System.nanoTime();
    if (frame instanceof Frame.Tool t) {
      t.result = captureResult && thrown == null ? capture.capture(result, t.site, -1) : null;
      t.thrown = thrown;
      if (!t.merged) {
        Frame.Turn turn = turns.of(t.parent, null);
        String turnId = turn == null ? null : turns.callIn(turn, null);
        String session = turn == null ? null : turn.session;
        writer.submit(new CapturedCall(t.site, t.startNanos, end, Thread.currentThread().getName(), t.args, t.result,
            thrown, turnId, session, null, null, null, false, null));
      }
    } else if (frame instanceof Frame.Framework f) {
      finishFramework(f, end, result, thrown);
    } else if (frame instanceof Frame.Turn t) {
      turns.exit(t, result, thrown, end);
    }
  }

  private void finishFramework(Frame.Framework f, long end, Object result, Throwable thrown) {
    boolean errorResult = false;
    String errorText = null;
    String resultText = null;
    if (result instanceof String s) {
      resultText = s;
    } else if (result != null) {
      errorResult = Boolean.TRUE.equals(access.call(result, "isError"));
      resultText = access.text(result, "resultText");
      errorText = errorResult ? resultText : null;
    }
    Frame.Turn enclosing = turns.of(f.parent, f.invocationId);
    String turn = enclosing == null ? f.invocationId : turns.callIn(enclosing, f.invocationId);
    // outside a turn of this thread, LangChain4j's invocation context still names the conversation
    String session = enclosing != null ? enclosing.session
        : f.context == null ? null : access.text(f.context, "chatMemoryId");
    String thread = Thread.currentThread().getName();
    Frame.Tool inner = f.inner;
    if (inner != null) {
      Throwable cause = inner.thrown != null ? inner.thrown : thrown;
      writer.submit(new CapturedCall(inner.site, f.startNanos, end, thread, inner.args, inner.result, cause, turn,
          session, f.callId, f.toolName, null, errorResult, errorText));
    } else {
      Object captured = captureResult && thrown == null ? resultText : null;
      writer.submit(new CapturedCall(f.site, f.startNanos, end, thread, null, captured, thrown, turn, session,
          f.callId, f.toolName, captureArgs ? f.rawArgs : null, errorResult, errorText));
    }
  }

  private void describe(Frame.Framework f, Role role, Object self, Object[] args, Frame current) {
    Object first = args != null && args.length > 0 ? args[0] : null;
    if (role == Role.LANGCHAIN4J_EXECUTOR) {
      f.callId = access.text(first, "id");
      f.toolName = access.text(first, "name");
      f.rawArgs = access.text(first, "arguments");
      f.context = args != null && args.length > 1 ? args[1] : null;
      f.invocationId = f.context == null ? null : access.text(f.context, "invocationId");
    } else {
      f.toolName = access.text(access.call(self, "getToolDefinition"), "name");
      f.rawArgs = first instanceof String s ? s : null;
      f.callId = modelCallId(current, f.toolName);
    }
    if (f.callId == null) {
      f.callId = idPrefix + generatedIds.incrementAndGet();
    }
  }

  /** The id the model gave this tool call, when Spring AI's tool-calling manager is running it. */
  private static String modelCallId(Frame current, String toolName) {
    Frame.ToolCalls calls = Frame.nearest(current, Frame.ToolCalls.class);
    if (calls == null) {
      return null;
    }
    for (Iterator<FrameworkAccess.ToolCallRef> it = calls.pending.iterator(); it.hasNext(); ) {
      FrameworkAccess.ToolCallRef ref = it.next();
      if (ref.name() != null && ref.name().equals(toolName)) {
        it.remove();
        return ref.id();
      }
    }
    return null;
  }

  /**
   * The snapshots of the arguments, taken in place: the array is the one the advice built for this call alone
   * (Byte Buddy's {@code @AllArguments} copies the arguments into a new array on every call), so nothing else sees
   * it.
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
