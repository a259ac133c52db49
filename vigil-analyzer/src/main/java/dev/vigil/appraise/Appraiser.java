package dev.vigil.appraise;

import dev.vigil.dialogue.ToolRoles;
import dev.vigil.observe.Event;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The appraisal engine (docs/DESIGN.md#appraisal): the first {@link AppraisalRule} that matches an
 * event gives its emotion and valence; its intensity is computed and clamped. Deterministic, no
 * LLM.
 *
 * <p>With the default rules this repairs four faults of the public reference implementation: a
 * complaint or a plain {@code error} status is frustration, not curiosity; a failure carrying an
 * uplift field keeps its severity (the failure rule comes before the success rules); a later {@code
 * ok} earns no more relief than the first; and {@code improvement_pct ≤ 0} is not pride ({@link
 * Magnitude}).
 *
 * <p>Before the table (docs/DESIGN.md#appraisal): a successful call of a read tool ({@link
 * ToolRoles}) is looked up, not achieved: where the table would give pride or relief it gives
 * curiosity, {@value #READ_VALENCE} at {@value #READ_INTENSITY}, so that repeated look-ups never
 * coalesce into a rose. {@code turn.*} events are context ({@link #isContext}): callers deposit
 * nothing for them.
 *
 * <p>Not thread-safe: it caches causes and counts unusable {@code delayed_by_sec} values.
 */
public final class Appraiser {
  /** Valence of a successful look-up. */
  static final double READ_VALENCE = 0.4;

  /** Intensity of a successful look-up, before clamping. */
  static final double READ_INTENSITY = 0.3;

  private final List<AppraisalRule> rules;
  private final ToolRoles roles;
  private final double clampMin;
  private final double clampMax;
  private final Map<String, Map<String, String>> causes = new HashMap<>();
  private long badDelayValues;

  /** An engine over the given rules and clamp range, with the default tool roles. */
  public Appraiser(List<AppraisalRule> rules, double clampMin, double clampMax) {
    this(rules, ToolRoles.DEFAULTS, clampMin, clampMax);
  }

  /** An engine over the given rules, tool roles and clamp range. */
  public Appraiser(List<AppraisalRule> rules, ToolRoles roles, double clampMin, double clampMax) {
    this.rules = List.copyOf(rules);
    this.roles = roles;
    this.clampMin = clampMin;
    this.clampMax = clampMax;
  }

  /** Appraises one event. */
  public Appraisal appraise(Event event) {
    String kind = event.kind().toLowerCase(Locale.ROOT);
    String status = event.status().toLowerCase(Locale.ROOT);
    double magnitude = Magnitude.of(event.payload());
    double severity = severity(event);
    double given = givenSeverity(event);
    for (AppraisalRule rule : rules) {
      if (rule.matches(kind, status, magnitude)) {
        String cause = cause(event.kind(), event.status());
        if (isPositiveOutcome(rule.emotion()) && roles.of(event) == ToolRoles.Role.READ) {
          return new Appraisal("curiosity", READ_VALENCE, clamp(READ_INTENSITY), cause);
        }
        double raw = rule.intensity().compute(magnitude, severity, given);
        return new Appraisal(rule.emotion(), rule.valence(), clamp(raw), cause);
      }
    }
    throw new IllegalStateException(
        "no appraisal rule matches kind "
            + kind
            + " status "
            + status
            + "; the rules must end with a rule that matches everything");
  }

  /**
   * Whether the event is conversation context ({@code turn.user}, {@code turn.answer}: any raw
   * {@code turn.*} event): the detectors read it; it is no outcome and deposits nothing.
   */
  public static boolean isContext(Event event) {
    return event.kind().startsWith("turn.");
  }

  private static boolean isPositiveOutcome(String emotion) {
    return emotion.equals("pride") || emotion.equals("relief");
  }

  private double severity(Event event) {
    double d = DelaySeverity.of(event.payload());
    if (d == DelaySeverity.INVALID) {
      badDelayValues++;
      return Double.NaN;
    }
    return d;
  }

  /**
   * {@code payload.severity} when it is a number (a policy violation's, docs/POLICIES.md), else
   * NaN.
   */
  private static double givenSeverity(Event event) {
    var s = event.payload().get("severity");
    return s != null && s.isNumber() ? s.doubleValue() : Double.NaN;
  }

  private double clamp(double raw) {
    return Math.min(Math.max(raw, clampMin), clampMax);
  }

  /** {@code kind:status}, shared between events with the same pair. */
  private String cause(String kind, String status) {
    return causes
        .computeIfAbsent(kind, k -> new HashMap<>())
        .computeIfAbsent(status, s -> kind + ':' + s);
  }

  /**
   * How many events carried a {@code delayed_by_sec} that was not a number (ignored, never fatal).
   */
  public long badDelayValues() {
    return badDelayValues;
  }
}
