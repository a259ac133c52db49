package dev.vigil.observe.capture;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One entry of the per-thread stack the recorder keeps while instrumented methods run: a tool call,
 * a framework's tool call (which absorbs the tool method beneath it, so one call is one event), a
 * turn (one user message) or a framework's batch of tool calls (which knows their ids). A frame
 * entered again while it is active is joined ({@link #depth}) rather than pushed twice.
 */
abstract sealed class Frame permits Frame.Tool, Frame.FrameworkTool, Frame.Turn, Frame.ToolCalls {
  final Frame parent;
  final long startNanos;
  int depth = 1;

  /** The stack of the thread the frame was entered on, once pushed. */
  private Stack stack;

  /** A thread's frames: the innermost one active. */
  static final class Stack {
    Frame top;

    void push(Frame f) {
      f.stack = this;
      top = f;
    }
  }

  Frame(Frame parent, long startNanos) {
    this.parent = parent;
    this.startNanos = startNanos;
  }

  /**
   * Leaves this frame: its parent is the top of its thread's stack again, if this frame was on top.
   */
  void pop() {
    if (stack != null && stack.top == this) {
      stack.top = parent;
    }
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

  /** A framework's tool call (a method of role {@link Role#FRAMEWORK_TOOL}). */
  static final class FrameworkTool extends Frame {
    final Site site;

    /** The call's id: the framework's, the model's, or Vigil's own. */
    String callId;

    /** What the framework told of the call when it began. */
    Framework.ToolCall described;

    /** The tool method that ran beneath, if any. */
    Tool inner;

    FrameworkTool(Frame parent, Site site, long startNanos) {
      super(parent, startNanos);
      this.site = site;
    }
  }

  /**
   * One user message being answered. Its id is fixed when it opens: when the framework gives the
   * call its ids (LangChain4j), at once when it has none to give (Spring AI), else at its first
   * tool call or when it ends.
   */
  static final class Turn extends Frame {
    final Site site;
    String id;

    /** The conversation (memory id, conversation id). */
    String session;

    /** The user message's snapshot, or null. */
    Object userText;

    /** Whether the id is fixed and {@code turn.user} handed over. */
    boolean opened;

    /** Whether it is registered under its id for tool calls the framework runs on other threads. */
    boolean shared;

    /** Tool calls recorded in the turn, on its thread or on others. */
    final AtomicInteger toolCalls = new AtomicInteger();

    Turn(Frame parent, Site site, long startNanos) {
      super(parent, startNanos);
      this.site = site;
    }
  }

  /** The tool calls of one model answer that a framework is about to run, in order. */
  static final class ToolCalls extends Frame {
    final List<Framework.ToolCallRef> pending;

    ToolCalls(Frame parent, long startNanos, List<Framework.ToolCallRef> pending) {
      super(parent, startNanos);
      this.pending = pending;
    }
  }
}
