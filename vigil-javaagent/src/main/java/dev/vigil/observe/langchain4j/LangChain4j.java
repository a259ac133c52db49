package dev.vigil.observe.langchain4j;

import dev.vigil.observe.capture.Framework;
import dev.vigil.observe.capture.FrameworkAccess;
import dev.vigil.observe.capture.MethodRule;
import dev.vigil.observe.capture.Role;
import dev.vigil.observe.capture.Site;
import dev.vigil.observe.capture.ValueCapture;
import java.lang.reflect.Method;
import java.util.List;

/**
 * LangChain4j: its {@code @Tool} methods; its {@code ToolExecutor}, which carries the tool-call id;
 * and its AI services, whose proxy's {@code InvocationHandler} answers one user message (a turn)
 * and, once LangChain4j has built the call's {@code InvocationContext}, gives the turn its
 * invocation id and memory id. The tools may run on other threads, where the invocation id finds
 * their turn.
 */
public final class LangChain4j implements Framework {
  static final String TOOL = "dev.langchain4j.agent.tool.Tool";
  static final String EXECUTOR = "dev.langchain4j.service.tool.ToolExecutor";
  static final String REQUEST = "dev.langchain4j.agent.tool.ToolExecutionRequest";
  static final String SERVICES = "dev.langchain4j.service.";
  static final String INVOCATION_HANDLER = "java.lang.reflect.InvocationHandler";
  static final String TOKEN_STREAM = "dev.langchain4j.service.TokenStream";

  private static final List<MethodRule> METHODS =
      List.of(
          MethodRule.of(Role.FRAMEWORK_TOOL, EXECUTOR, "execute", "executeWithContext")
              .params(2, 2)
              .firstParam(REQUEST),
          // invoke(Method, Object[], InvocationContext) follows the proxy's invoke(proxy, Method,
          // Object[]) once the
          // call has its invocation id and memory id
          MethodRule.of(Role.TURN_CONTEXT, INVOCATION_HANDLER, "invoke")
              .inPackage(SERVICES)
              .params(3, 3)
              .firstParam(Method.class.getName()),
          MethodRule.of(Role.TURN, INVOCATION_HANDLER, "invoke").inPackage(SERVICES).params(3, 3));

  private final FrameworkAccess access = new FrameworkAccess();
  private final LangChain4jConversation conversation = new LangChain4jConversation(access);

  @Override
  public String name() {
    return "LangChain4j";
  }

  @Override
  public List<String> packages() {
    return List.of("dev.langchain4j.");
  }

  @Override
  public List<String> toolAnnotations() {
    return List.of(TOOL);
  }

  @Override
  public List<MethodRule> methods() {
    return METHODS;
  }

  @Override
  public List<String> promises() {
    return List.of(TOKEN_STREAM);
  }

  /**
   * {@code execute(ToolExecutionRequest, Object memoryId)} or {@code executeWithContext(request,
   * context)}.
   */
  @Override
  public ToolCall toolCall(Object self, Object[] args) {
    Object request = args != null && args.length > 0 ? args[0] : null;
    Object context = args != null && args.length > 1 ? args[1] : null;
    String invocationId = context == null ? null : access.text(context, "invocationId");
    return new ToolCall(
        access.text(request, "id"),
        access.text(request, "name"),
        access.text(request, "arguments"),
        invocationId,
        context);
  }

  /** Outside a turn of the tool's thread, the invocation context still names the conversation. */
  @Override
  public String session(ToolCall call) {
    return call.context() == null ? null : access.text(call.context(), "chatMemoryId");
  }

  /**
   * A string, or a {@code ToolExecutionResult} with its {@code resultText()} and {@code isError()}.
   */
  @Override
  public ToolResult toolResult(Object result) {
    if (result instanceof String s) {
      return new ToolResult(s, false);
    }
    return new ToolResult(
        access.text(result, "resultText"), Boolean.TRUE.equals(access.call(result, "isError")));
  }

  @Override
  public TurnStart turn(Site site, Object self, Object[] args, ValueCapture texts) {
    boolean withContext = site.role() == Role.TURN_CONTEXT;
    Object m = withContext ? args[0] : args[1];
    Object a = withContext ? args[1] : args[2];
    if (!(m instanceof Method method) || !LangChain4jConversation.isChat(method)) {
      return null;
    }
    Object[] values = a instanceof Object[] v ? v : null;
    String session = LangChain4jConversation.memoryId(method, values);
    Object userText = texts == null ? null : conversation.userText(method, values, site, texts);
    TurnIds ids = withContext && args[2] != null ? turnIds(args) : null;
    return new TurnStart(session, userText, ids, false);
  }

  /**
   * The invocation id and memory id of the call's {@code InvocationContext}, its third argument.
   */
  @Override
  public TurnIds turnIds(Object[] args) {
    Object context = args[2];
    return new TurnIds(conversation.invocationId(context), conversation.memoryId(context));
  }
}
