package dev.vigil.orchestrate.llm;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.agent.tool.ToolSpecifications;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.SystemMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.output.TokenUsage;
import dev.vigil.orchestrate.LlmRun;
import dev.vigil.orchestrate.PassDriver;
import dev.vigil.orchestrate.PassOptions;
import dev.vigil.orchestrate.PassSession;
import dev.vigil.orchestrate.Stage;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The LLM drives the pass (docs/STAGES.md#the-llm): LangChain4j's OpenAI-compatible chat model is
 * given the stages as tools ({@link PassTools}) and calls them until the pass reaches {@code
 * diff_done}. It has a budget of tool calls and of wall-clock time. When a budget runs out, the
 * server fails or the model stops early, the driver returns and the deterministic path finishes the
 * pass; the report's {@code llm} object says which and why.
 */
public final class LlmDriver implements PassDriver {
  static final String SYSTEM =
      String.join(
          "\n",
          "You are the reflective supervisor of a tool-using LLM agent, running one pass of the VIGIL loop.",
          "The pass is a stage machine: start -> eb_updated -> diagnosed -> prompt_done -> diff_done.",
          "Call the tools in this order: update_eb_from_logs, diagnose_rbt, build_prompt_patch, then optionally",
          "emit_unified_diff with a unified diff that fixes the top thorn in the agent's repository, then",
          "save_proposal. A tool called out of order returns an error naming the expected stage: follow it.",
          "A rejected diff comes back with the reason; fix it or go on to save_proposal without one.",
          "Never skip a stage. Answer briefly once save_proposal has run.");

  private final LlmConfig config;
  private final ChatModel model;
  private final Clock clock;

  /**
   * A driver talking to the configured server through LangChain4j's OpenAI client; budgets on
   * {@code clock}.
   */
  public LlmDriver(LlmConfig config, Clock clock) {
    this(config, openAi(config), clock);
  }

  /**
   * LangChain4j's OpenAI-compatible client for the configured server: no retries, the wall-clock
   * budget as timeout.
   */
  static ChatModel openAi(LlmConfig config) {
    return OpenAiChatModel.builder()
        .baseUrl(config.baseUrl())
        .apiKey(config.apiKey())
        .modelName(config.model())
        .timeout(config.timeout())
        .maxRetries(0)
        .build();
  }

  /**
   * A driver with a chat model of the caller's; the wall-clock budget is measured on {@code clock}.
   */
  public LlmDriver(LlmConfig config, ChatModel model, Clock clock) {
    this.config = config;
    this.model = model;
    this.clock = clock;
  }

  @Override
  public void drive(PassSession session) {
    PassTools tools = new PassTools(session);
    List<ToolSpecification> specs = ToolSpecifications.toolSpecificationsFrom(tools);
    List<ChatMessage> messages = new ArrayList<>();
    messages.add(SystemMessage.from(SYSTEM));
    messages.add(UserMessage.from(task(session.options())));
    Instant deadline = clock.instant().plus(config.timeout());
    TokenUsage tokens = null;
    String reason = null;
    try {
      conversation:
      while (session.stage() != Stage.DIFF_DONE) {
        if (clock.instant().isAfter(deadline)) {
          reason = timeRanOut(session);
          break;
        }
        ChatResponse response =
            model.chat(ChatRequest.builder().messages(messages).toolSpecifications(specs).build());
        tokens = TokenUsage.sum(tokens, response.tokenUsage());
        AiMessage ai = response.aiMessage();
        messages.add(ai);
        if (ai == null || !ai.hasToolExecutionRequests()) {
          reason = "the model stopped calling tools at stage " + session.stage();
          break;
        }
        for (ToolExecutionRequest call : ai.toolExecutionRequests()) {
          if (tools.calls().size() >= config.maxCalls()) {
            reason =
                "the budget of "
                    + config.maxCalls()
                    + " tool calls ran out at stage "
                    + session.stage();
            break conversation;
          }
          if (clock.instant().isAfter(deadline)) {
            reason = timeRanOut(session);
            break conversation;
          }
          messages.add(
              ToolExecutionResultMessage.from(call, tools.execute(call.name(), call.arguments())));
        }
      }
    } catch (RuntimeException e) {
      // the client's timeout is the wall-clock budget: a request that timed out ran the budget out
      reason =
          clock.instant().isAfter(deadline) || timedOut(e)
              ? timeRanOut(session)
              : "the LLM server failed at stage "
                  + session.stage()
                  + ": "
                  + e.getClass().getSimpleName()
                  + ": "
                  + firstLine(e.getMessage());
    }
    session.llm(run(tools, reason, tokens));
  }

  /** Why the conversation ended when the wall-clock budget ran out. */
  private String timeRanOut(PassSession session) {
    return "the wall-clock budget of "
        + config.timeout().toSeconds()
        + " s ran out at stage "
        + session.stage();
  }

  /**
   * The record of the LLM's run: completed, or fallen back to the deterministic path for {@code
   * reason}.
   */
  private LlmRun run(PassTools tools, String reason, TokenUsage tokens) {
    return new LlmRun(
        config.model(),
        config.baseUrl(),
        reason == null ? LlmRun.COMPLETED : LlmRun.FALLBACK,
        reason,
        tools.calls(),
        config.maxCalls(),
        config.timeout().toMillis(),
        count(tokens == null ? null : tokens.inputTokenCount()),
        count(tokens == null ? null : tokens.outputTokenCount()),
        count(tokens == null ? null : tokens.totalTokenCount()));
  }

  private static String task(PassOptions o) {
    return "Run one reflective pass over the agent's events of the "
        + (o.window().toMinutes() / 60.0)
        + " hours before "
        + o.now()
        + "."
        + (o.prompt() == null
            ? " No prompt file was given: build_prompt_patch will have nothing to adapt."
            : " The agent's prompt is " + o.prompt().getFileName() + ".")
        + (o.repo() == null
            ? " No repository was given: do not emit a diff."
            : " The agent's repository is at "
                + o.repo().toAbsolutePath()
                + "; diff paths are relative to it.");
  }

  static boolean timedOut(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t.getClass().getSimpleName().contains("Timeout")) {
        return true;
      }
    }
    return false;
  }

  private static long count(Integer n) {
    return n == null ? -1 : n;
  }

  static String firstLine(String s) {
    if (s == null) {
      return "(no message)";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }
}
