package dev.vigil.diagnose;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The deterministic catalogue of prompt rules, keyed by thorn causes (SPEC section 4.5, the paper's section 4.4):
 * each thorn cause, in the order of {@code top_thorns}, adds the rules of the first family it belongs to.
 */
public final class PromptRuleCatalogue {
  /** Success reported before its confirmation. */
  public static final List<String> PREMATURE_SUCCESS = List.of(
      "Report success only after the backend's confirmation (receipt) has arrived; until then tell the user the "
          + "request is pending.");
  /** Delays and late deliveries. */
  public static final List<String> DELAY = List.of(
      "Normalize every timestamp to UTC ISO-8601 with an explicit offset before scheduling or comparing times.",
      "Gate each success message on the backend receipt, waiting a bounded time (at most 30 s), and log the "
          + "receipt lag.");
  /** Too many tool calls in one turn. */
  public static final List<String> TOOL_CALL_EXPLOSION = List.of(
      "Keep a budget of tool calls per user message; when it is spent, stop calling tools and summarize what is "
          + "known.");
  /** The same failure, rephrased. */
  public static final List<String> FAILURE_PLATEAU = List.of(
      "When a failure repeats in different words, stop retrying the same approach: change strategy or escalate "
          + "to the user.");
  /** Failures and timeouts. */
  public static final List<String> FAILURE = List.of(
      "Retry a failed tool call at most twice, with jittered exponential backoff.",
      "After the last retry, report a structured error with a stable reason code instead of a vague apology.");
  /** User complaints. */
  public static final List<String> COMPLAINT = List.of(
      "When the user complains, acknowledge it, say what went wrong and what will be done differently.");

  private PromptRuleCatalogue() {}

  /** The rules for the given thorn causes, most severe cause first, without repeats. */
  public static List<String> rulesFor(List<ThornCause> topThorns) {
    Set<String> rules = new LinkedHashSet<>();
    for (ThornCause t : topThorns) {
      rules.addAll(family(t.cause()));
    }
    return new ArrayList<>(rules);
  }

  /** The rule family of one cause ({@code kind:status}). */
  static List<String> family(String cause) {
    String c = cause.toLowerCase(Locale.ROOT);
    int colon = c.lastIndexOf(':');
    String kind = colon < 0 ? c : c.substring(0, colon);
    String status = colon < 0 ? "" : c.substring(colon + 1);
    if (kind.endsWith(".premature") || kind.contains("premature")) {
      return PREMATURE_SUCCESS;
    }
    if (kind.contains("explosion")) {
      return TOOL_CALL_EXPLOSION;
    }
    if (kind.contains("plateau")) {
      return FAILURE_PLATEAU;
    }
    if (status.equals("delay") || kind.contains("delay") || kind.contains("timestamp")) {
      return DELAY;
    }
    if (status.equals("complaint")) {
      return COMPLAINT;
    }
    return FAILURE;
  }
}
