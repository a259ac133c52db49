package dev.vigil.orchestrate.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
import dev.vigil.adapt.code.Check;
import dev.vigil.adapt.code.ForeignDiff;
import dev.vigil.diagnose.Diagnosis;
import dev.vigil.diagnose.ThornCause;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.orchestrate.LlmRun;
import dev.vigil.orchestrate.PassSession;
import dev.vigil.orchestrate.StageOrderException;
import dev.vigil.orchestrate.Step;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The pass's stages as the LLM's tools, named as in the paper. Every call goes through the
 * session's stage machine: an out-of-order call comes back to the model as a tool result naming the
 * expected and the actual stage, and a rejected diff comes back with the reason.
 */
final class PassTools {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** A tool result is cut to this many characters in the report. */
  static final int REPORTED_RESULT_CHARS = 300;

  private final PassSession session;
  private final List<LlmRun.ToolCall> calls = new ArrayList<>();

  /**
   * @param session the pass the tools act on
   */
  public PassTools(PassSession session) {
    this.session = session;
  }

  @Tool(
      name = "update_eb_from_logs",
      value =
          "Stage start -> eb_updated. Appraise the window's events and "
              + "deposit them into the EmoBank. Call first.")
  public String updateEbFromLogs() {
    return step(Step.UPDATE_EB_FROM_LOGS);
  }

  @Tool(
      name = "diagnose_rbt",
      value =
          "Stage eb_updated -> diagnosed. Diagnose Roses/Buds/Thorns; returns the top "
              + "thorns, the prompt rules to add and what the soft-failure detectors found.")
  public String diagnoseRbt() {
    String done = step(Step.DIAGNOSE_RBT);
    Diagnosis d = session.diagnosis();
    if (d == null || done.startsWith("error:")) {
      return done;
    }
    StringBuilder sb = new StringBuilder(done);
    for (ThornCause t : d.topThorns()) {
      sb.append(
          String.format(
              Locale.ROOT,
              "%nthorn %s: %d thorns, decayed intensity %.3f",
              t.cause(),
              t.thorns(),
              t.intensity()));
    }
    d.promptRulesToAdd().forEach(r -> sb.append("\nrule to add: ").append(r));
    for (Detection det : session.detections()) {
      if (det.fired()) {
        sb.append("\ndetector ").append(det.name()).append(": ").append(det.summary());
      }
    }
    return sb.toString();
  }

  @Tool(
      name = "build_prompt_patch",
      value =
          "Stage diagnosed -> prompt_done. Rewrite the adaptive section of the "
              + "agent's prompt from the diagnosis (the core identity never changes). Optionally pass your own reflection "
              + "for the section's Reflection part; it goes through the same prompt guard.")
  public String buildPromptPatch(
      @P(
              name = "reflection",
              value = "a short reflection for the adaptive section",
              required = false)
          String reflection) {
    if (session.stage() == Step.BUILD_PROMPT_PATCH.from()
        && reflection != null
        && !reflection.isBlank()) {
      session.reflection(reflection);
    }
    return step(Step.BUILD_PROMPT_PATCH);
  }

  @Tool(
      name = "emit_unified_diff",
      value =
          "At stage prompt_done. Offer a unified diff (git format, paths relative "
              + "to the repository) that fixes the top thorn; it is checked with git apply --check and compiled. Rejected "
              + "diffs come back with the reason.")
  public String emitUnifiedDiff(@P(name = "diff", value = "the whole unified diff") String diff) {
    try {
      ForeignDiff.Verdict v = session.offerDiff(diff);
      if (!v.accepted()) {
        return "rejected: " + v.reason();
      }
      List<String> checks = v.checks().stream().map(Check::toString).toList();
      return "accepted (" + String.join("; ", checks) + "); call save_proposal to write it";
    } catch (StageOrderException e) {
      return "error: " + e.getMessage();
    } catch (IOException e) {
      return "rejected: the diff could not be checked: " + e.getMessage();
    }
  }

  @Tool(
      name = "save_proposal",
      value =
          "Stage prompt_done -> diff_done. Run the code stage and save the "
              + "proposals, your accepted diff among them. Call last.")
  public String saveProposal() {
    return step(Step.SAVE_PROPOSAL);
  }

  /** Runs the tool called {@code name} with its JSON arguments and records the call. */
  public String execute(String name, String arguments) {
    String stage = session.stage().label();
    String result;
    JsonNode args;
    try {
      args =
          arguments == null || arguments.isBlank()
              ? MAPPER.createObjectNode()
              : MAPPER.readTree(arguments);
    } catch (IOException e) {
      args = null;
    }
    if (args == null || !args.isObject()) {
      result = "error: the arguments of " + name + " are not a JSON object";
    } else {
      result =
          switch (name) {
            case "update_eb_from_logs" -> updateEbFromLogs();
            case "diagnose_rbt" -> diagnoseRbt();
            case "build_prompt_patch" ->
                buildPromptPatch(
                    args.path("reflection").isTextual() ? args.get("reflection").asText() : null);
            case "emit_unified_diff" ->
                args.path("diff").isTextual()
                    ? emitUnifiedDiff(args.get("diff").asText())
                    : "error: emit_unified_diff needs its diff as the string argument \"diff\"";
            case "save_proposal" -> saveProposal();
            default ->
                "error: there is no tool named "
                    + name
                    + "; the tools are update_eb_from_logs, diagnose_rbt, "
                    + "build_prompt_patch, emit_unified_diff, save_proposal";
          };
    }
    String line = result.replace('\n', ' ');
    calls.add(
        new LlmRun.ToolCall(
            name,
            stage,
            line.length() > REPORTED_RESULT_CHARS
                ? line.substring(0, REPORTED_RESULT_CHARS) + "…"
                : line));
    return result;
  }

  /** The calls made so far. */
  public List<LlmRun.ToolCall> calls() {
    return List.copyOf(calls);
  }

  private String step(Step step) {
    try {
      return session.run(step);
    } catch (StageOrderException e) {
      return "error: " + e.getMessage();
    }
  }
}
