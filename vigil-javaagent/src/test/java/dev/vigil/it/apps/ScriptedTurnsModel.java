package dev.vigil.it.apps;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A LangChain4j chat model that plays a script (no network): the user message's first word chooses
 * the tool calls it asks for and the answer it gives once their results are in. "plan": a reminder
 * and a hotel; "remind": a reminder; "explode": the model fails; anything else: an answer without
 * tools. The answer to "plan" tells whether retrieved content was added to the message.
 */
public final class ScriptedTurnsModel implements ChatModel {
  private final AtomicInteger ids = new AtomicInteger();

  @Override
  public ChatResponse doChat(ChatRequest request) {
    List<ChatMessage> messages = request.messages();
    String user = lastUserText(messages);
    boolean toolsDone = !(messages.get(messages.size() - 1) instanceof UserMessage);
    if (user.startsWith("explode")) {
      throw new IllegalStateException("model unavailable");
    }
    if (user.startsWith("plan")) {
      // the content retriever's text reaches the model, not the user message Vigil records
      String answer =
          user.contains("Opening hours")
              ? "Your evening is planned; we open at 9."
              : "Your evening is planned.";
      return toolsDone
          ? answer(answer)
          : calls(
              call("setReminder", "{\"when\":\"at 19:00\",\"task\":\"dinner\"}"),
              call("book_hotel", "{\"city\":\"Oslo\",\"nights\":1}"));
    }
    if (user.startsWith("remind")) {
      return toolsDone
          ? answer("Reminder set.")
          : calls(call("setReminder", "{\"when\":\"tomorrow\",\"task\":\"rotate the key\"}"));
    }
    if (user.startsWith("Translate")) {
      return answer("bonne nuit");
    }
    return answer("You are welcome, enjoy the evening and sleep well tonight.");
  }

  private static String lastUserText(List<ChatMessage> messages) {
    for (int i = messages.size() - 1; i >= 0; i--) {
      if (messages.get(i) instanceof UserMessage u) {
        return u.singleText();
      }
    }
    return "";
  }

  private ToolExecutionRequest call(String name, String args) {
    return ToolExecutionRequest.builder()
        .id("call_" + ids.incrementAndGet())
        .name(name)
        .arguments(args)
        .build();
  }

  private static ChatResponse calls(ToolExecutionRequest... calls) {
    return ChatResponse.builder().aiMessage(AiMessage.from(List.of(calls))).build();
  }

  private static ChatResponse answer(String text) {
    return ChatResponse.builder().aiMessage(AiMessage.from(text)).build();
  }
}
