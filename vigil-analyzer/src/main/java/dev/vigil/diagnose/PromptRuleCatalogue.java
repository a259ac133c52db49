package dev.vigil.diagnose;

import dev.vigil.diagnose.detect.Detection;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The deterministic catalogue of prompt rules (docs/DESIGN.md#roses-buds-and-thorns, the paper's
 * section 4.4). Each thorn cause, in the order of {@code top_thorns}, adds the rules of the first
 * family it belongs to; then each detector that fired adds its family when no thorn did. The first
 * rule of a family whose detector fired carries that detector's evidence in numbers (the mean
 * receipt lag, the slow tool and its budget, the turn and its call count).
 */
public final class PromptRuleCatalogue {
  /**
   * A family of causes, its rules, and the detector whose evidence it quotes (null for none; a name
   * ending in a dot: every detector under it, as the rules file's policies {@code policy.<name>}).
   */
  enum Family {
    PREMATURE_SUCCESS(
        "premature_success",
        "Report success only after the backend's confirmation (receipt) has arrived; until then tell the user the "
            + "request is pending."),
    TOOL_CALL_EXPLOSION(
        "tool_call_explosion",
        "Keep a budget of tool calls per user message; when it is spent, stop calling tools and summarize what is "
            + "known."),
    FAILURE_PLATEAU(
        "failure_plateau",
        "When a failure repeats in different words, stop retrying the same approach: change strategy or escalate "
            + "to the user."),
    LATENCY(
        "latency",
        "When a tool is slower than its budget, tell the user it is still working instead of waiting silently, and "
            + "do not call it again in the same turn."),
    TIMESTAMP(
        "timestamp_inconsistent",
        "Normalize every timestamp to UTC ISO-8601 with an explicit offset before scheduling or comparing times; "
            + "ask for the user's time zone when a time has none."),
    UNCONFIRMED_WRITE(
        "unconfirmed_write",
        "Before any action that changes state (booking, cancelling, paying, updating), state exactly what you will "
            + "do and wait for the user's explicit yes."),
    CLAIM_WITHOUT_ACTION(
        "claim_without_action",
        "Say that an action is done only when the tool call that does it succeeded in this turn; otherwise say what "
            + "is pending or what failed."),
    USER_CORRECTION(
        "user_correction",
        "When the user corrects you or repeats a request, re-read their words, say what you misunderstood and fix "
            + "that before anything else."),
    WRITE_AFTER_REFUSAL(
        "write_after_refusal",
        "When a tool refuses an action, do not call it again with altered arguments to get past the refusal: "
            + "explain the refusal to the user."),
    JUDGE(
        "judge",
        "Follow your written instructions on every action; when a request conflicts with them, refuse and cite the "
            + "instruction."),
    DELAY(
        null,
        "Normalize every timestamp to UTC ISO-8601 with an explicit offset before scheduling or comparing times.",
        "Gate each success message on the backend receipt, waiting a bounded time (at most 30 s), and log the "
            + "receipt lag."),
    POLICY(
        "policy.",
        "Before a call that changes state, check the user's policy for that tool and do not make a call that breaks "
            + "it: tell the user why instead."),
    COMPLAINT(
        null,
        "When the user complains, acknowledge it, say what went wrong and what will be done differently."),
    FAILURE(
        null,
        "Retry a failed tool call at most twice, with jittered exponential backoff.",
        "After the last retry, report a structured error with a stable reason code instead of a vague apology.");

    final String detector;

    // List.of: unmodifiable
    @SuppressWarnings("ImmutableEnumChecker")
    final List<String> rules;

    Family(String detector, String... rules) {
      this.detector = detector;
      this.rules = List.of(rules);
    }

    /**
     * Whether a detector of this name quotes this family ({@code policy.} covers every policy
     * rule).
     */
    boolean quotes(String name) {
      return detector != null
          && (name.equals(detector) || (detector.endsWith(".") && name.startsWith(detector)));
    }
  }

  private PromptRuleCatalogue() {}

  /** The rules for the given thorn causes, most severe cause first, without repeats. */
  public static List<String> rulesFor(List<ThornCause> topThorns) {
    return rulesFor(topThorns, List.of());
  }

  /** The rules for the thorn causes and the detectors that fired, with the detectors' evidence. */
  public static List<String> rulesFor(List<ThornCause> topThorns, List<Detection> detections) {
    Set<Family> families = EnumSet.noneOf(Family.class);
    List<Family> order = new ArrayList<>();
    for (ThornCause t : topThorns) {
      Family f = family(t.cause());
      if (families.add(f)) {
        order.add(f);
      }
    }
    for (Detection d : detections) {
      for (Family f : Family.values()) {
        if (d.fired() && f.quotes(d.name()) && families.add(f)) {
          order.add(f);
        }
      }
    }
    Set<String> rules = new LinkedHashSet<>();
    for (Family f : order) {
      String evidence = evidence(f, detections);
      for (int i = 0; i < f.rules.size(); i++) {
        rules.add(
            i == 0 && !evidence.isEmpty()
                ? f.rules.get(i) + " Evidence: " + evidence + "."
                : f.rules.get(i));
      }
    }
    return new ArrayList<>(rules);
  }

  private static String evidence(Family f, List<Detection> detections) {
    for (Detection d : detections) {
      if (d.fired() && f.quotes(d.name())) {
        return d.summary();
      }
    }
    return "";
  }

  /** The rule family of one cause ({@code kind:status}). */
  static Family family(String cause) {
    String c = cause.toLowerCase(Locale.ROOT);
    int colon = c.lastIndexOf(':');
    String kind = colon < 0 ? c : c.substring(0, colon);
    String status = colon < 0 ? "" : c.substring(colon + 1);
    if (kind.startsWith("policy.")) {
      return Family.POLICY;
    }
    if (kind.contains("premature")) {
      return Family.PREMATURE_SUCCESS;
    }
    if (kind.contains("explosion")) {
      return Family.TOOL_CALL_EXPLOSION;
    }
    if (kind.contains("plateau")) {
      return Family.FAILURE_PLATEAU;
    }
    if (kind.endsWith(".unconfirmed") || status.equals("unconfirmed")) {
      return Family.UNCONFIRMED_WRITE;
    }
    if (kind.contains("claim_without_action")) {
      return Family.CLAIM_WITHOUT_ACTION;
    }
    if (kind.contains("user_correction")) {
      return Family.USER_CORRECTION;
    }
    if (kind.endsWith(".after_refusal")) {
      return Family.WRITE_AFTER_REFUSAL;
    }
    if (kind.startsWith("judge.")) {
      return Family.JUDGE;
    }
    if (kind.endsWith(".latency")) {
      return Family.LATENCY;
    }
    if (kind.contains("timestamp")) {
      return Family.TIMESTAMP;
    }
    if (status.equals("delay") || kind.contains("delay")) {
      return Family.DELAY;
    }
    if (status.equals("complaint")) {
      return Family.COMPLAINT;
    }
    return Family.FAILURE;
  }
}
