package com.example.scripted;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;

/**
 * A stand-in chat model that plays a {@link SessionScript}, good behaviour or bad, without a network: each user
 * message starts the next turn of the script, and each call of the model returns that turn's next step (tool calls,
 * which the AI service then really executes, or the answer). What the tools do is real: they may refuse, fail or
 * succeed; the script decides only what the model says and calls.
 */
public final class ScriptedModel implements ChatModel {
  private final Deque<SessionScript.Turn> turns = new ArrayDeque<>();
  private final Deque<SessionScript.Step> steps = new ArrayDeque<>();
  private int calls;
  private int offScript;

  /** Plays this session next. */
  public synchronized void play(SessionScript script) {
    turns.clear();
    steps.clear();
    turns.addAll(script.turns());
  }

  /** How often the model was asked for a step its script did not have, or a turn ended before its script. */
  public synchronized int offScript() {
    return offScript;
  }

  @Override
  public synchronized ChatResponse doChat(ChatRequest request) {
    List<ChatMessage> messages = request.messages();
    if (messages.get(messages.size() - 1) instanceof UserMessage) {
      SessionScript.Turn turn = turns.poll();
      offScript += steps.isEmpty() ? 0 : 1; // the last turn ended before its script did
      steps.clear();
      if (turn != null) {
        steps.addAll(turn.steps());
      }
    }
    SessionScript.Step step = steps.poll();
    if (step == null) {
      offScript++;
      return text("Is there anything else I can help you with?");
    }
    if (step.calls().isEmpty()) {
      return text(step.answer());
    }
    List<ToolExecutionRequest> requests = new ArrayList<>();
    for (SessionScript.Call c : step.calls()) {
      requests.add(ToolExecutionRequest.builder().id("call_" + ++calls).name(c.tool()).arguments(c.arguments())
          .build());
    }
    return ChatResponse.builder().aiMessage(AiMessage.from(requests)).build();
  }

  private static ChatResponse text(String text) {
    return ChatResponse.builder().aiMessage(AiMessage.from(text)).build();
  }
}
