package dev.vigil.ingest.otlp;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.List;

/**
 * The user's text and the answer a span carries (docs/OPENTELEMETRY.md#traces-in), in each form the
 * conventions in wide use write them: the GenAI conventions' {@code gen_ai.input.messages} / {@code
 * gen_ai.output.messages} (1.37 on), their earlier span events ({@code gen_ai.user.message}, {@code
 * gen_ai.choice}, {@code gen_ai.content.prompt} / {@code gen_ai.content.completion}), OpenLLMetry's
 * indexed {@code gen_ai.prompt.N.*} / {@code gen_ai.completion.N.*}, and OpenInference's {@code
 * llm.input_messages.N.message.*}, {@code input.value} and {@code output.value}.
 */
final class Messages {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
  private static final List<String> INPUT_KEYS =
      List.of("input", "query", "question", "message", "content", "text", "prompt");
  private static final List<String> OUTPUT_KEYS =
      List.of("output", "answer", "content", "text", "response", "result");

  private Messages() {}

  /** The last user message of the span's input, or null. */
  static String userText(TraceSpan s) {
    String t = lastOfRole(json(s.attr("gen_ai.input.messages")), "user");
    t =
        t != null
            ? t
            : indexed(s, "llm.input_messages.", ".message.role", ".message.content", true);
    t = t != null ? t : indexed(s, "gen_ai.prompt.", ".role", ".content", true);
    t = t != null ? t : eventAttr(s, "gen_ai.user.message", "content");
    t = t != null ? t : unwrap(s.attr("input.value"), INPUT_KEYS, "user");
    t = t != null ? t : unwrap(s.attr("gen_ai.prompt"), INPUT_KEYS, "user");
    return t != null
        ? t
        : unwrap(eventAttr(s, "gen_ai.content.prompt", "gen_ai.prompt"), INPUT_KEYS, "user");
  }

  /**
   * The answer the span's output holds, or null (for example when the model only asked for tools).
   */
  static String answerText(TraceSpan s) {
    String t = lastOfRole(json(s.attr("gen_ai.output.messages")), "assistant");
    t =
        t != null
            ? t
            : indexed(s, "llm.output_messages.", ".message.role", ".message.content", false);
    t = t != null ? t : indexed(s, "gen_ai.completion.", ".role", ".content", false);
    t = t != null ? t : choice(s);
    t = t != null ? t : unwrap(s.attr("output.value"), OUTPUT_KEYS, "assistant");
    t = t != null ? t : unwrap(s.attr("gen_ai.completion"), OUTPUT_KEYS, "assistant");
    return t != null
        ? t
        : unwrap(
            eventAttr(s, "gen_ai.content.completion", "gen_ai.completion"),
            OUTPUT_KEYS,
            "assistant");
  }

  /**
   * The text of the last message of {@code role} in a JSON array of messages, each with {@code
   * parts} (GenAI 1.37 on) or a {@code content} string.
   */
  private static String lastOfRole(JsonNode messages, String role) {
    if (messages == null || !messages.isArray()) {
      return null;
    }
    for (int i = messages.size() - 1; i >= 0; i--) {
      JsonNode m = messages.get(i);
      if (role.equals(m.path("role").asText(role))) {
        String t = textOf(m);
        if (t != null) {
          return t;
        }
      }
    }
    return null;
  }

  private static String textOf(JsonNode message) {
    JsonNode content = message.path("content");
    if (content.isTextual() && !content.asText().isBlank()) {
      return content.asText();
    }
    StringBuilder sb = new StringBuilder();
    for (JsonNode part : message.path("parts")) {
      if ("text".equals(part.path("type").asText()) && part.path("content").isTextual()) {
        if (sb.length() > 0) {
          sb.append('\n');
        }
        sb.append(part.path("content").asText());
      }
    }
    return sb.length() == 0 ? null : sb.toString();
  }

  /**
   * The last content of {@code prefix N suffix} attributes: of role user when {@code user}, else
   * any non-blank one.
   */
  private static String indexed(
      TraceSpan s, String prefix, String role, String content, boolean user) {
    String found = null;
    for (int i = 0; i < 10_000; i++) {
      String c = s.attr(prefix + i + content);
      String r = s.attr(prefix + i + role);
      if (c == null && r == null) {
        break;
      }
      if (c != null && (!user || "user".equals(r))) {
        found = c;
      }
    }
    return found;
  }

  private static String choice(TraceSpan s) {
    TraceSpan.SpanEvent e = s.event("gen_ai.choice");
    if (e == null) {
      return null;
    }
    String message = e.attributes().get("message");
    JsonNode m = json(message);
    if (m != null && m.isObject()) {
      return textOf(m);
    }
    return blankToNull(e.attributes().get("content"));
  }

  private static String eventAttr(TraceSpan s, String event, String attr) {
    String found = null;
    for (TraceSpan.SpanEvent e : s.events()) {
      if (e.name().equals(event) && blankToNull(e.attributes().get(attr)) != null) {
        found = e.attributes().get(attr);
      }
    }
    return found;
  }

  /**
   * A value that may be plain text or JSON: a JSON string is its text; an array of messages gives
   * its last of {@code role}; an object gives its first text field among {@code keys}; anything
   * else is the value as written.
   */
  private static String unwrap(String value, List<String> keys, String role) {
    if (value == null) {
      return null;
    }
    JsonNode j = json(value);
    if (j == null) {
      return value;
    }
    if (j.isTextual()) {
      return blankToNull(j.asText());
    }
    if (j.isArray()) {
      String t = lastOfRole(j, role);
      return t != null ? t : value;
    }
    if (j.isObject()) {
      for (String k : keys) {
        if (j.path(k).isTextual() && !j.path(k).asText().isBlank()) {
          return j.path(k).asText();
        }
      }
      String t = lastOfRole(j.path("messages"), role);
      return t != null ? t : value;
    }
    return value;
  }

  /** The JSON a value holds whole, or null when it is absent or not JSON. */
  static JsonNode json(String value) {
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      return MAPPER.readTree(value);
    } catch (IOException e) {
      return null;
    }
  }

  private static String blankToNull(String s) {
    return s == null || s.isBlank() ? null : s;
  }
}
