package dev.vigil.orchestrate;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * What the LLM did in a pass (docs/STAGES.md#the-llm), for the report.
 *
 * @param model the model's name
 * @param baseUrl the server
 * @param outcome {@code completed} (the model walked the stages to the end) or {@code fallback}
 * @param reason why the deterministic path took over, or null
 * @param calls the tool calls, in order
 * @param budgetCalls the tool-call budget
 * @param budgetMillis the wall-clock budget
 * @param inputTokens input tokens the server reported over the run, or -1 when it reported none
 * @param outputTokens output tokens, or -1
 * @param totalTokens total tokens, or -1
 */
public record LlmRun(
    String model,
    String baseUrl,
    String outcome,
    String reason,
    List<ToolCall> calls,
    int budgetCalls,
    long budgetMillis,
    long inputTokens,
    long outputTokens,
    long totalTokens) {

  /** The model walked the stages to the end. */
  public static final String COMPLETED = "completed";

  /** The deterministic path finished the pass. */
  public static final String FALLBACK = "fallback";

  /**
   * One tool call.
   *
   * @param tool its name
   * @param stage the stage before the call
   * @param result what came back to the model, cut to a line
   */
  public record ToolCall(String tool, String stage, String result) {}

  /** Copies the list. */
  public LlmRun {
    calls = List.copyOf(calls);
  }

  /** The run as report.json's {@code llm} object. */
  public ObjectNode toJson() {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("model", model);
    n.put("base_url", baseUrl);
    n.put("outcome", outcome);
    if (reason != null) {
      n.put("fallback_reason", reason);
    }
    n.put("tool_calls", calls.size());
    n.putObject("budget").put("tool_calls", budgetCalls).put("seconds", budgetMillis / 1000.0);
    ArrayNode a = n.putArray("calls");
    for (ToolCall c : calls) {
      a.addObject().put("tool", c.tool()).put("stage", c.stage()).put("result", c.result());
    }
    ObjectNode t = n.putObject("tokens");
    long[] counts = {inputTokens, outputTokens, totalTokens};
    String[] names = {"input", "output", "total"};
    for (int i = 0; i < names.length; i++) {
      if (counts[i] >= 0) {
        t.put(names[i], counts[i]);
      } else {
        t.putNull(names[i]);
      }
    }
    return n;
  }
}
