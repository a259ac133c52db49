package dev.vigil.observe.agent;

import java.util.List;

/**
 * One entry of the per-thread stack the recorder keeps while instrumented methods run: a tool call, a framework's
 * tool call (which absorbs the tool method beneath it, so one call is one event), a turn (one user message) or
 * Spring AI's batch of tool calls (which knows their ids). A frame entered again while it is active is joined
 * ({@link #depth}) rather than pushed twice.
 */
abstract sealed class Frame permits Frame.Tool, Frame.Framework, Frame.Turn, Frame.ToolCalls {
  final Frame parent;
  final long startNanos;
  int depth = 1;

  Frame(Frame parent, long startNanos) {
    this.parent = parent;
    this.startNanos = startNanos;
  }

  /** The nearest enclosing frame of a type, starting at {@code from}. */
  static <T extends Frame> T nearest(Frame from, Class<T> type) {
    for (Frame f = from; f != null; f = f.parent) {
      if (type.isInstance(f)) {
        return type.cast(f);
      }
    }
    return null;
  }

  /** A call of a tool method. */
  static final class Tool extends Frame {
    final Site site;
    final Object[] args;
    /** True when a framework frame just above absorbs this call. */
    boolean merged;
    Object result;
    Throwable thrown;

    Tool(Frame parent, Site site, long startNanos, Object[] args) {
      super(parent, startNanos);
      this.site = site;
      this.args = args;
    }
  }

  /** A framework's tool call (LangChain4j executor, Spring AI callback). */
  static final class Framework extends Frame {
    final Site site;
    String callId;
    String toolName;
    String rawArgs;
    String invocationId;
    /** The tool method that ran beneath, if any. */
    Tool inner;

    Framework(Frame parent, Site site, long startNanos) {
      super(parent, startNanos);
      this.site = site;
    }
  }

  /** One user message being answered; its id is fixed on first use. */
  static final class Turn extends Frame {
    String id;

    Turn(Frame parent, long startNanos) {
      super(parent, startNanos);
    }
  }

  /** The tool calls of one model answer that Spring AI is about to run, in order. */
  static final class ToolCalls extends Frame {
    final List<FrameworkAccess.ToolCallRef> pending;

    ToolCalls(Frame parent, long startNanos, List<FrameworkAccess.ToolCallRef> pending) {
      super(parent, startNanos);
      this.pending = pending;
    }
  }
}
