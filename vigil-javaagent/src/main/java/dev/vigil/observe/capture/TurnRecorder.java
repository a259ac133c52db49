package dev.vigil.observe.capture;

import dev.vigil.observe.agent.AgentConfig;
import dev.vigil.observe.langchain4j.LangChain4jConversation;
import dev.vigil.observe.springai.SpringAiConversation;
import dev.vigil.observe.writer.EventWriter;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The conversation's turns (SPEC section 2), for the {@link CallRecorder}: opens a turn when a LangChain4j AI service
 * or a Spring AI {@code ChatClient} call begins to answer one user message, hands {@code turn.user} to the writer
 * before the turn's first tool call and {@code turn.answer} when the call returns or throws, and tells the tool
 * calls made meanwhile their turn id and session. A turn entered again before any tool call (the proxy's handler
 * calling its own {@code invoke}, one call-spec method calling another) is the same turn; a turn entered beneath a
 * tool call (an agent used as a tool) is a turn of its own. With {@code vigil.capture.turns=false} the turns still
 * give tool calls their ids and sessions, but no text is read and no turn event is written.
 */
final class TurnRecorder {
  private final EventWriter writer;
  private final boolean captureTurns;
  private final LangChain4jConversation langchain4j;
  private final SpringAiConversation springAi;
  private final Answers answers;
  /** Open LangChain4j turns by id, for the tool calls that LangChain4j runs on other threads. */
  private final Map<String, Frame.Turn> shared = new ConcurrentHashMap<>();

  TurnRecorder(EventWriter writer, AgentConfig config, FrameworkAccess access, ValueCapture capture) {
    this.writer = writer;
    this.captureTurns = config.captureTurns();
    this.langchain4j = new LangChain4jConversation(access, capture);
    this.springAi = new SpringAiConversation(access);
    this.answers = new Answers(access, capture);
  }

  /**
   * A turn's method is entered with {@code current} on top of the thread's stack.
   *
   * @return the turn to push, {@code current} itself when it is the same turn entered again, or null when the
   *     call is no turn (the proxy's {@code toString}, say)
   */
  Frame enter(Site site, Frame current, Object self, Object[] args, long now) {
    if (current instanceof Frame.Turn same) {
      if (site.role() == Role.LANGCHAIN4J_INVOCATION) {
        adopt(same, args[2]);
      }
      same.depth++;
      return same;
    }
    return switch (site.role()) {
      case LANGCHAIN4J_TURN -> args[1] instanceof Method m
          ? langchain4jTurn(site, current, m, args[2] instanceof Object[] a ? a : null, null, now) : null;
      case LANGCHAIN4J_INVOCATION -> args[0] instanceof Method m
          ? langchain4jTurn(site, current, m, args[1] instanceof Object[] a ? a : null, args[2], now) : null;
      case SPRING_AI_TURN -> springAiTurn(site, current, self, now);
      default -> null;
    };
  }

  private Frame.Turn langchain4jTurn(Site site, Frame current, Method method, Object[] args, Object context,
      long now) {
    if (!LangChain4jConversation.isChat(method)) {
      return null;
    }
    Frame.Turn turn = new Frame.Turn(current, site, now);
    turn.session = LangChain4jConversation.memoryId(method, args);
    turn.userText = captureTurns ? langchain4j.userText(method, args, site) : null;
    if (context != null) {
      adopt(turn, context);
    }
    return turn;
  }

  /**
   * LangChain4j has built the call's {@code InvocationContext}: the turn takes its invocation id (which LangChain4j
   * also hands to the tool executors) and memory id, and opens.
   */
  private void adopt(Frame.Turn turn, Object context) {
    if (turn.opened) {
      return;
    }
    String memoryId = langchain4j.memoryId(context);
    if (memoryId != null) {
      turn.session = memoryId;
    }
    open(turn, langchain4j.invocationId(context));
    if (turn.id != null) {
      turn.shared = true;
      shared.put(turn.id, turn);
    }
  }

  private Frame.Turn springAiTurn(Site site, Frame current, Object callSpec, long now) {
    Object request = springAi.request(callSpec);
    Frame.Turn turn = new Frame.Turn(current, site, now);
    turn.session = springAi.conversationId(request);
    turn.userText = captureTurns ? springAi.userText(request) : null;
    open(turn, null);
    return turn;
  }

  /**
   * The turn a tool call belongs to: the nearest one on the calling thread, else the open LangChain4j turn whose id
   * is the framework's invocation id (tools run on another thread), else none.
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
    writer.submit(CapturedTurn.answer(endNanos, Thread.currentThread().getName(), turn.id, turn.session, text,
        turn.toolCalls.get(), thrown));
  }

  /** Fixes the turn's id (the framework's when it gave one) and hands {@code turn.user} to the writer. */
  private void open(Frame.Turn turn, String frameworkId) {
    turn.id = frameworkId != null ? frameworkId : UUID.randomUUID().toString();
    turn.opened = true;
    if (captureTurns) {
      writer.submit(CapturedTurn.user(turn.startNanos, Thread.currentThread().getName(), turn.id, turn.session,
          turn.userText));
    }
  }
}
