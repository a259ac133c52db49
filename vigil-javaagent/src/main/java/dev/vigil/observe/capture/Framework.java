package dev.vigil.observe.capture;

import java.util.List;

/**
 * What Vigil knows of one agent framework: the methods it instruments, in plain strings (the
 * start-up gate reads them before Byte Buddy is loaded), and how it reads the framework's own
 * objects when those methods run: a tool call's id, name and arguments, a turn's user text and
 * conversation. Vigil is compiled against no framework, so an implementation reads by reflection
 * and returns null rather than throw. One implementation per framework, each in a package of its
 * own; a new framework is one more implementation, listed in {@code agent.Frameworks}.
 */
public interface Framework {
  /** The framework's name, for messages. */
  String name();

  /** The prefixes of the framework's class names, dotted ({@code "dev.langchain4j."}). */
  List<String> packages();

  /**
   * The annotations that mark a tool method; their {@code name} attribute, when set, is the tool's
   * name.
   */
  List<String> toolAnnotations();

  /**
   * The framework's methods Vigil instruments; the first rule that matches a method gives its role.
   */
  List<MethodRule> methods();

  /** Interfaces of the framework's results that deliver an answer later (a token stream). */
  default List<String> promises() {
    return List.of();
  }

  /**
   * A method of role {@link Role#FRAMEWORK_TOOL} is entered with receiver {@code self} and {@code
   * args}: what it tells of the tool call. Fields it cannot read are null.
   */
  ToolCall toolCall(Object self, Object[] args);

  /**
   * The conversation a tool call belongs to when no turn on its thread names one; null when
   * unknown.
   */
  default String session(ToolCall call) {
    return null;
  }

  /**
   * What a method of role {@link Role#FRAMEWORK_TOOL} returned: its text and whether the framework
   * calls it an error.
   */
  ToolResult toolResult(Object result);

  /**
   * A method of role {@link Role#TOOL_CALLS} is entered: the tool calls the model asked for, in
   * order.
   */
  default List<ToolCallRef> pendingToolCalls(Object self, Object[] args) {
    return List.of();
  }

  /**
   * A method of role {@link Role#TURN} or {@link Role#TURN_CONTEXT} is entered outside any turn of
   * its thread: the turn it begins, or null when the call is no turn (a proxy's {@code toString},
   * say).
   *
   * @param texts snapshots the user text when it is an object; null when turns' texts are not
   *     captured
   */
  TurnStart turn(Site site, Object self, Object[] args, ValueCapture texts);

  /**
   * A method of role {@link Role#TURN_CONTEXT} is entered inside its open turn: the ids it gives
   * the turn, or null.
   */
  default TurnIds turnIds(Object[] args) {
    return null;
  }

  /**
   * One tool call as the framework's entry point sees it.
   *
   * @param callId the id the model gave the call, or null
   * @param toolName the tool's name, or null
   * @param rawArgs the arguments as the model wrote them (JSON), or null
   * @param invocationId the id of the turn the framework runs the call in, or null
   * @param context the framework's own context object, for {@link #session}, or null
   */
  record ToolCall(
      String callId, String toolName, String rawArgs, String invocationId, Object context) {}

  /**
   * What a framework's tool call returned: its text, and whether the framework marks it as an
   * error.
   */
  record ToolResult(String text, boolean error) {}

  /** One tool call the model asked for: its id and the tool's name. */
  record ToolCallRef(String id, String name) {}

  /** The ids a framework gives a turn: its own turn id and the conversation, each possibly null. */
  record TurnIds(String id, String session) {}

  /**
   * A turn beginning.
   *
   * @param session the conversation, or null
   * @param userText the user message (text or snapshot), or null
   * @param ids the framework's ids for the turn when it has given them already, else null
   * @param openNow whether the turn opens at once (else at its first tool call, its ids, or its
   *     end)
   */
  record TurnStart(String session, Object userText, TurnIds ids, boolean openNow) {}
}
