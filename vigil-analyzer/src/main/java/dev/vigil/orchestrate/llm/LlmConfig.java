package dev.vigil.orchestrate.llm;

import java.time.Duration;
import java.util.Map;
import java.util.Properties;

/**
 * Where the LLM is and how much of it a pass may use (docs/STAGES.md#the-llm). Read from the system
 * properties {@code vigil.llm.base_url}, {@code vigil.llm.model}, {@code vigil.llm.api_key} or,
 * when a property is not set, the environment variables {@code VIGIL_LLM_BASE_URL}, {@code
 * VIGIL_LLM_MODEL}, {@code VIGIL_LLM_API_KEY}.
 *
 * @param baseUrl an OpenAI-compatible chat-completions server, e.g. {@code
 *     https://api.openai.com/v1} or {@code http://localhost:11434/v1} (Ollama)
 * @param model the model's name
 * @param apiKey the key; a local server that needs none gets a placeholder
 * @param maxCalls the tool-call budget
 * @param timeout the wall-clock budget of the whole LLM session
 */
public record LlmConfig(
    String baseUrl, String model, String apiKey, int maxCalls, Duration timeout) {
  /** Sent when no key is configured: local servers ignore it. */
  public static final String NO_KEY = "none";

  /** Builds the configuration, or fails naming what is missing. */
  public static LlmConfig from(
      Map<String, String> env, Properties props, int maxCalls, Duration timeout) {
    String baseUrl = value(env, props, "VIGIL_LLM_BASE_URL", "vigil.llm.base_url");
    String model = value(env, props, "VIGIL_LLM_MODEL", "vigil.llm.model");
    String apiKey = value(env, props, "VIGIL_LLM_API_KEY", "vigil.llm.api_key");
    if (baseUrl == null || model == null) {
      throw new IllegalArgumentException(
          "--llm needs an LLM: set VIGIL_LLM_BASE_URL and VIGIL_LLM_MODEL (and "
              + "VIGIL_LLM_API_KEY unless the server needs none), or the properties vigil.llm.base_url, "
              + "vigil.llm.model, vigil.llm.api_key; missing: "
              + (baseUrl == null ? "VIGIL_LLM_BASE_URL" + (model == null ? ", " : "") : "")
              + (model == null ? "VIGIL_LLM_MODEL" : ""));
    }
    if (!baseUrl.startsWith("http://") && !baseUrl.startsWith("https://")) {
      throw new IllegalArgumentException(
          "VIGIL_LLM_BASE_URL \"" + baseUrl + "\" is not an http(s) URL");
    }
    if (maxCalls <= 0) {
      throw new IllegalArgumentException("--llm-max-calls must be positive, not " + maxCalls);
    }
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("--llm-timeout-seconds must be positive");
    }
    return new LlmConfig(baseUrl, model, apiKey == null ? NO_KEY : apiKey, maxCalls, timeout);
  }

  private static String value(
      Map<String, String> env, Properties props, String variable, String property) {
    String v = props.getProperty(property);
    if (v == null || v.isBlank()) {
      v = env.get(variable);
    }
    return v == null || v.isBlank() ? null : v.strip();
  }

  /** The key, never printed. */
  @Override
  public String toString() {
    return "LlmConfig[baseUrl="
        + baseUrl
        + ", model="
        + model
        + ", maxCalls="
        + maxCalls
        + ", timeout="
        + timeout
        + "]";
  }
}
