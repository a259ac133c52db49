package dev.vigil.ingest.otlp;

import java.util.Locale;

/**
 * What a span is to the dialogue (docs/OPENTELEMETRY.md#traces-in), by the GenAI semantic
 * conventions' {@code gen_ai.operation.name}, OpenInference's {@code openinference.span.kind}, or
 * Spring AI's {@code spring.ai.kind}.
 */
public enum SpanRole {
  /** A tool call: it becomes a tool event. */
  TOOL,
  /** A call to a model: its messages give the turn's user text and answer when no agent does. */
  MODEL,
  /** An agent's invocation: it frames one turn, the tool and model spans beneath it. */
  AGENT;

  /** Skip reason of a span that fits neither convention. */
  public static final String NOT_GENAI = "otlp_span_not_genai";

  /** Skip reason of a GenAI or OpenInference span of an operation the mapping does not read. */
  public static final String UNMAPPED = "otlp_span_unmapped_operation";

  /**
   * The span's role.
   *
   * @return the role, or null when the span has none; {@link #skipReason} then says why
   */
  public static SpanRole of(TraceSpan s) {
    String op = s.attr("gen_ai.operation.name");
    if (op != null) {
      SpanRole r = ofGenAi(op.toLowerCase(Locale.ROOT));
      if (r != null) {
        return r;
      }
    }
    String oi = s.attr("openinference.span.kind");
    if (oi != null) {
      return switch (oi.toUpperCase(Locale.ROOT)) {
        case "TOOL" -> TOOL;
        case "LLM" -> MODEL;
        case "AGENT" -> AGENT;
        default -> null;
      };
    }
    String spring = s.attr("spring.ai.kind");
    if (spring != null) {
      return switch (spring) {
        case "tool_call" -> TOOL;
        case "chat_client" -> AGENT;
        default -> null;
      };
    }
    return null;
  }

  private static SpanRole ofGenAi(String op) {
    return switch (op) {
      case "execute_tool" -> TOOL;
      case "chat", "text_completion", "generate_content" -> MODEL;
      case "invoke_agent" -> AGENT;
      default -> null;
    };
  }

  /** Why a span without a role is skipped. */
  public static String skipReason(TraceSpan s) {
    boolean known =
        s.attr("gen_ai.operation.name") != null
            || s.attr("openinference.span.kind") != null
            || s.attr("spring.ai.kind") != null;
    return known ? UNMAPPED : NOT_GENAI;
  }
}
