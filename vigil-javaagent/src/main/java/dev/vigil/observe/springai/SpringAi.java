package dev.vigil.observe.springai;

import dev.vigil.observe.capture.Framework;
import dev.vigil.observe.capture.FrameworkAccess;
import dev.vigil.observe.capture.MethodRule;
import dev.vigil.observe.capture.Role;
import dev.vigil.observe.capture.Site;
import dev.vigil.observe.capture.ValueCapture;
import java.util.ArrayList;
import java.util.List;

/**
 * Spring AI: its {@code @Tool} methods; its {@code ToolCallback}, one tool call; its tool-calling
 * manager, which runs the tool calls of one model answer and knows the ids the model gave them; and
 * its {@code ChatClient} call spec, whose methods answer one user message (a turn).
 */
public final class SpringAi implements Framework {
  static final String TOOL = "org.springframework.ai.tool.annotation.Tool";
  static final String CALLBACK = "org.springframework.ai.tool.ToolCallback";
  static final String CALL_RESPONSE =
      "org.springframework.ai.chat.client.ChatClient$CallResponseSpec";
  static final String MANAGER = "org.springframework.ai.model.tool.DefaultToolCallingManager";

  private static final List<MethodRule> METHODS =
      List.of(
          MethodRule.of(Role.FRAMEWORK_TOOL, CALLBACK, "call")
              .params(1, 2)
              .firstParam(String.class.getName()),
          MethodRule.of(
                  Role.TURN,
                  CALL_RESPONSE,
                  "content",
                  "chatResponse",
                  "chatClientResponse",
                  "entity",
                  "responseEntity")
              .publicMethods(),
          MethodRule.of(Role.TOOL_CALLS, MANAGER, "executeToolCall").exact());

  private final FrameworkAccess access = new FrameworkAccess();
  private final SpringAiConversation conversation = new SpringAiConversation(access);

  @Override
  public String name() {
    return "Spring AI";
  }

  @Override
  public List<String> packages() {
    return List.of("org.springframework.ai.");
  }

  @Override
  public List<String> toolAnnotations() {
    return List.of(TOOL);
  }

  @Override
  public List<MethodRule> methods() {
    return METHODS;
  }

  /**
   * {@code call(String toolInput[, ToolContext])}: the tool's name from its definition; the id
   * comes from the model.
   */
  @Override
  public ToolCall toolCall(Object self, Object[] args) {
    Object first = args != null && args.length > 0 ? args[0] : null;
    String toolName = access.text(access.call(self, "getToolDefinition"), "name");
    return new ToolCall(null, toolName, first instanceof String s ? s : null, null, null);
  }

  @Override
  public ToolResult toolResult(Object result) {
    return new ToolResult(result instanceof String s ? s : null, false);
  }

  /** {@code executeToolCall(Prompt, AssistantMessage, ...)}: the message's tool calls. */
  @Override
  public List<ToolCallRef> pendingToolCalls(Object self, Object[] args) {
    Object message = args != null && args.length > 1 ? args[1] : null;
    Object calls = access.call(message, "getToolCalls");
    List<ToolCallRef> out = new ArrayList<>();
    if (calls instanceof Iterable<?> it) {
      for (Object call : it) {
        out.add(new ToolCallRef(access.text(call, "id"), access.text(call, "name")));
      }
    }
    return out;
  }

  /** The call spec's request: its conversation and last user message; the turn opens at once. */
  @Override
  public TurnStart turn(Site site, Object self, Object[] args, ValueCapture texts) {
    Object request = conversation.request(self);
    String userText = texts == null ? null : conversation.userText(request);
    return new TurnStart(conversation.conversationId(request), userText, null, true);
  }
}
