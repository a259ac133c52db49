package dev.vigil.observe.capture;

/**
 * What an instrumented method is to Vigil. Only {@link #TOOL} belongs to no framework; the others
 * are methods of an agent framework, which a {@link Framework} names with its {@link MethodRule}s
 * and reads when they run.
 */
public enum Role {
  /**
   * A tool method: annotated as a tool, or named by {@code vigil.methods.include}. One event per
   * call.
   */
  TOOL,
  /**
   * A framework's entry point for one tool call (LangChain4j's {@code ToolExecutor}, Spring AI's
   * {@code ToolCallback}): it knows the call id and the tool's name, and is merged with the tool
   * method beneath it.
   */
  FRAMEWORK_TOOL,
  /** A call that answers one user message: one turn. */
  TURN,
  /**
   * The same call once the framework has given it its own ids (LangChain4j's {@code
   * InvocationContext}): the turn takes its id and session from them.
   */
  TURN_CONTEXT,
  /**
   * A framework running the tool calls of one model answer (Spring AI's tool-calling manager):
   * their ids, in order.
   */
  TOOL_CALLS;

  /**
   * Whether calls of this role are tool calls of a framework, merged with the tool method beneath
   * them.
   */
  public boolean isFramework() {
    return this == FRAMEWORK_TOOL;
  }
}
