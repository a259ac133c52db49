package com.example.robin;

import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.data.message.AiMessage;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.data.message.ToolExecutionResultMessage;
import dev.langchain4j.data.message.UserMessage;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.time.Clock;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A deterministic chat model for when no LLM is configured: it turns each request into the tool call a model would
 * make ("remind me in 30 minutes to stretch", "at 15:00 call mom", "list my reminders", "cancel rem-3"), passing
 * times as the user's local date-time the way models usually do, and words the answer from the tool's result. It
 * reads no system prompt, so only code changes alter what Robin does with it.
 */
public final class StandInModel implements ChatModel {
  private static final Pattern IN_MINUTES = Pattern.compile("in (\\d+) minutes? (?:to )?(.+)");
  private static final Pattern AT_TIME = Pattern.compile("at (\\d{1,2}:\\d{2}),? (?:to )?(.+)");
  private static final Pattern CANCEL = Pattern.compile("cancel (?:reminder )?(rem-\\d+)");

  private final ZoneId userZone;
  private final Clock clock;
  private final AtomicInteger calls = new AtomicInteger();

  public StandInModel(ZoneId userZone) {
    this(userZone, Clock.systemUTC());
  }

  StandInModel(ZoneId userZone, Clock clock) {
    this.userZone = userZone;
    this.clock = clock;
  }

  @Override
  public ChatResponse doChat(ChatRequest request) {
    List<ChatMessage> messages = request.messages();
    ChatMessage last = messages.get(messages.size() - 1);
    if (last instanceof ToolExecutionResultMessage result) {
      return text(answer(result.text()));
    }
    if (!(last instanceof UserMessage user)) {
      return text("How can I help?");
    }
    String message = user.singleText().toLowerCase(Locale.ROOT).replaceFirst("^(please )?remind me ", "");
    LocalDateTime now = LocalDateTime.now(clock.withZone(userZone)).truncatedTo(ChronoUnit.MINUTES);
    Matcher m = IN_MINUTES.matcher(message);
    if (m.find()) {
      return call("setReminder", "{\"task\":\"" + m.group(2) + "\",\"when\":\""
          + now.plusMinutes(Long.parseLong(m.group(1))) + "\"}");
    }
    m = AT_TIME.matcher(message);
    if (m.find()) {
      LocalTime at = LocalTime.parse(m.group(1).length() == 4 ? "0" + m.group(1) : m.group(1));
      LocalDateTime when = now.toLocalDate().atTime(at);
      if (!when.isAfter(now)) {
        when = when.plusDays(1);
      }
      return call("setReminder", "{\"task\":\"" + m.group(2) + "\",\"when\":\"" + when + "\"}");
    }
    m = CANCEL.matcher(message);
    if (m.find()) {
      return call("cancelReminder", "{\"reminder\":\"" + m.group(1) + "\"}");
    }
    if (message.contains("list") || message.contains("what are my")) {
      return call("listReminders", "{}");
    }
    return text("I can set, list and cancel reminders.");
  }

  private static String answer(String toolResult) {
    if (toolResult.contains("\"status\":\"set\"")) {
      return "Reminder set.";
    }
    if (toolResult.contains("\"status\":\"pending\"")) {
      return "I asked for your reminder; the backend has not confirmed it yet, I will tell you when it does.";
    }
    return toolResult.strip();
  }

  private ChatResponse call(String tool, String arguments) {
    ToolExecutionRequest request = ToolExecutionRequest.builder()
        .id("call_" + calls.incrementAndGet()).name(tool).arguments(arguments).build();
    return ChatResponse.builder().aiMessage(AiMessage.from(List.of(request))).build();
  }

  private static ChatResponse text(String text) {
    return ChatResponse.builder().aiMessage(AiMessage.from(text)).build();
  }
}
