package dev.vigil.observe.capture;

/** What an instrumented method is to Vigil. */
public enum Role {
  /** A tool method: annotated {@code @Tool} or named by {@code vigil.methods.include}. One event per call. */
  TOOL,
  /** LangChain4j's {@code ToolExecutor#execute}/{@code executeWithContext}: carries the tool-call id. */
  LANGCHAIN4J_EXECUTOR,
  /** Spring AI's {@code ToolCallback#call}. */
  SPRING_AI_CALLBACK,
  /** A LangChain4j AI service answering one user message (its proxy's {@code InvocationHandler}): one turn. */
  LANGCHAIN4J_TURN,
  /**
   * The same AI-service call once LangChain4j has built its {@code InvocationContext} (invocation id and memory id):
   * the turn takes its id and session from it.
   */
  LANGCHAIN4J_INVOCATION,
  /** A Spring AI chat client call: one turn. */
  SPRING_AI_TURN,
  /** Spring AI's tool-calling manager running the tool calls of one model answer: their ids, in order. */
  SPRING_AI_TOOL_CALLS;

  /** Whether calls of this role are tool calls of a framework, merged with the tool method beneath them. */
  public boolean isFramework() {
    return this == LANGCHAIN4J_EXECUTOR || this == SPRING_AI_CALLBACK;
  }
}
