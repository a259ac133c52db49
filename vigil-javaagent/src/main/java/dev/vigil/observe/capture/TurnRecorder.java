package dev.vigil.observe.capture;

import dev.vigil.observe.agent.AgentConfig;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The conversation's turns, for the {@link CallRecorder}: opens a turn when a framework's call
 * begins to answer one user message (a LangChain4j AI service, a Spring AI {@code ChatClient} call;
 * its {@link Framework} reads the user text and conversation), hands {@code turn.user} to the
 * writer before the turn's first tool call and {@code turn.answer} when the call returns or throws,
 * and tells the tool calls made meanwhile their turn id and session. A turn entered again before
 * any tool call (a proxy's handler calling its own {@code invoke}, one call-spec method calling
 * another) is the same turn; a turn entered beneath a tool call (an agent used as a tool) is a turn
 * of its own. With {@code vigil.capture.turns=false} the turns still give tool calls their ids and
 * sessions, but no text is read and no turn event is written.
 */
final class TurnRecorder {
  private final CaptureSink writer;
  private final boolean captureTurns;
  private final ValueCapture capture;
  private final Answers answers;

  /** Open turns by the framework's id, for the tool calls a framework runs on other threads. */
  private final Map<String, Frame.Turn> shared = new ConcurrentHashMap<>();

  TurnRecorder(
      CaptureSink writer, AgentConfig config, List<Framework> frameworks, ValueCapture capture) {
    this.writer = writer;
    this.captureTurns = config.captureTurns();
    this.capture = capture;
    this.answers = new Answers(new FrameworkAccess(), capture, frameworks);
  }

  /**
   * A turn's method is entered with {@code current} on top of the thread's stack.
   *
   * @return the turn to push, {@code current} itself when it is the same turn entered again, or
   *     null when the call is no turn (the proxy's {@code toString}, say)
   */
  Frame enter(Site site, Frame current, Object self, Object[] args, long now) {
    if (current instanceof Frame.Turn same) {
      if (site.role() == Role.TURN_CONTEXT) {
        adopt(same, site.framework().turnIds(args));
      }
      same.depth++;
      return same;
    }
    Framework.TurnStart start =
        site.framework().turn(site, self, args, captureTurns ? capture : null);
    if (start == null) {
      return null;
    }
    Frame.Turn turn = new Frame.Turn(current, site, now);
    turn.session = start.session();
    turn.userText = start.userText();
    if (start.ids() != null) {
      adopt(turn, start.ids());
    } else if (start.openNow()) {
      open(turn, null);
    }
    return turn;
  }

  /**
   * The framework has given the call its own ids (LangChain4j's {@code InvocationContext}): the
   * turn takes its id (which the framework also hands to the tool calls it runs) and conversation,
   * and opens.
   */
  private void adopt(Frame.Turn turn, Framework.TurnIds ids) {
    if (turn.opened || ids == null) {
      return;
    }
    if (ids.session() != null) {
      turn.session = ids.session();
    }
    open(turn, ids.id());
    if (turn.id != null) {
      turn.shared = true;
      shared.put(turn.id, turn);
    }
  }

  /**
   * The turn a tool call belongs to: the nearest one on the calling thread, else the open turn
   * whose id is the framework's invocation id (the framework runs tools on another thread), else
   * none.
   */
  Frame.Turn of(Frame from, String invocationId) {
    Frame.Turn turn = Frame.nearest(from, Frame.Turn.class);
    if (turn == null && invocationId != null && !shared.isEmpty()) {
      turn = shared.get(invocationId);
    }
    return turn;
  }

  /** Counts a tool call in {@code turn}, opening it first if needed; its id. */
  String callIn(Frame.Turn turn, String invocationId) {
    if (!turn.opened) {
      open(turn, invocationId);
    }
    turn.toolCalls.incrementAndGet();
    return turn.id;
  }

  /** The turn's call returned {@code result} or threw {@code thrown}: {@code turn.answer}. */
  void exit(Frame.Turn turn, Object result, Throwable thrown, long endNanos) {
    if (turn.shared) {
      shared.remove(turn.id, turn);
    }
    if (!captureTurns) {
      return;
    }
    if (!turn.opened) {
      open(turn, null);
    }
    Object text = thrown == null ? answers.text(result, turn.site) : null;
    if (text == Answers.PENDING) {
      return;
    }
    writer.submit(
        CapturedTurn.answer(
            endNanos,
            Thread.currentThread().getName(),
            turn.id,
            turn.session,
            text,
            turn.toolCalls.get(),
            thrown));
  }

  /**
   * Fixes the turn's id (the framework's when it gave one) and hands {@code turn.user} to the
   * writer.
   */
  private void open(Frame.Turn turn, String frameworkId) {
    turn.id = frameworkId != null ? frameworkId : UUID.randomUUID().toString();
    turn.opened = true;
    if (captureTurns) {
      writer.submit(
          CapturedTurn.user(
              turn.startNanos,
              Thread.currentThread().getName(),
              turn.id,
              turn.session,
              turn.userText));
    }
  }
}
