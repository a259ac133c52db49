package dev.vigil.adapt.code;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * UTC-aware time and success only after confirmation (the paper's fix for Robin-A,
 * docs/ADAPTATION.md#code-proposals).
 *
 * <p>Fires when the evidence shows premature successes, delays or mixed timestamps (thorns of those
 * kinds, or the detectors' counts) and the scanner found naive-time or receipt hotspots. Score:
 * {@link StrategyScore} with the premature, delay and timestamp thorns as related, plus 0.2 when
 * the detector found premature successes, 0.1 for timestamp inconsistencies and 0.2 when the top
 * thorn is one of those kinds.
 *
 * <p>Rewrites: local times pinned to UTC are read in the zone the code has ({@link TimeRewriter}),
 * always when it fires; a success reported before the confirmation the code already holds as a
 * future now waits for it, with a bound ({@link ReceiptGate}), when there are premature successes
 * or delays (not for mixed timestamps alone).
 */
public final class TZReceiptStrategy implements Strategy {
  /** How long the patched code waits for a confirmation by default. */
  public static final Duration DEFAULT_CONFIRMATION_TIMEOUT = Duration.ofSeconds(30);

  private static final Set<Category> CATEGORIES = Set.of(Category.NAIVE_TIME, Category.RECEIPT);

  private final Duration confirmationTimeout;

  /** With the default bound of 30 s. */
  public TZReceiptStrategy() {
    this(DEFAULT_CONFIRMATION_TIMEOUT);
  }

  /**
   * @param confirmationTimeout how long the patched code waits for a confirmation (at least 1 ms)
   */
  public TZReceiptStrategy(Duration confirmationTimeout) {
    if (confirmationTimeout.toMillis() < 1) {
      throw new IllegalArgumentException(
          "TZReceiptStrategy: confirmation timeout "
              + confirmationTimeout
              + " is shorter than 1 ms; give a positive duration");
    }
    this.confirmationTimeout = confirmationTimeout;
  }

  @Override
  public String name() {
    return "TZReceiptStrategy";
  }

  @Override
  public String title() {
    return "Read local times in the user's zone and report success only after the confirmation";
  }

  @Override
  public double score(Evidence e, List<Hotspot> hotspots) {
    int related =
        e.thorns(ThornKind.PREMATURE) + e.thorns(ThornKind.DELAY) + e.thorns(ThornKind.TIMESTAMP);
    boolean signal = related > 0 || e.prematureSuccesses() > 0 || e.timestampInconsistencies() > 0;
    ThornKind top = e.topThornKind();
    double bonus =
        (e.prematureSuccesses() > 0 ? 0.2 : 0)
            + (e.timestampInconsistencies() > 0 ? 0.1 : 0)
            + (top == ThornKind.PREMATURE || top == ThornKind.DELAY || top == ThornKind.TIMESTAMP
                ? 0.2
                : 0);
    return StrategyScore.of(e, related, signal, bonus, hotspots, CATEGORIES);
  }

  @Override
  public Optional<Transformation> transform(
      Path file, String source, Evidence evidence, JavaRepo repo) {
    String path = file.toString().replace('\\', '/');
    if (JavaRepo.isTestSource(path)) {
      return Optional.empty();
    }
    boolean gating = gating(evidence);
    if (!TimeRewriter.mayApply(source) && !(gating && ReceiptGate.mayApply(source, repo))) {
      return Optional.empty();
    }
    JavaFile java;
    try {
      java = JavaFile.parse(source);
    } catch (IllegalArgumentException e) {
      return Optional.of(Transformation.unparsed(path, source, e.getMessage()));
    }
    List<String> changes = new ArrayList<>();
    List<String> notes = new ArrayList<>();
    try {
      new TimeRewriter(path, java, changes, notes).rewrite();
      if (gating) {
        new ReceiptGate(path, java, repo, changes, notes, confirmationTimeout).rewrite();
      }
      if (!changes.isEmpty()) {
        Imports.dropIfUnused(java, "java.time.ZoneOffset");
      }
    } catch (RuntimeException e) {
      return Optional.of(Transformation.unchanged(path, source, e));
    }
    if (changes.isEmpty() && notes.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(
        new Transformation(changes.isEmpty() ? source : java.print(), changes, notes));
  }

  @Override
  public String why(Evidence e) {
    StringBuilder why = new StringBuilder();
    if (e.prematureSuccesses() > 0 || e.thorns(ThornKind.PREMATURE) > 0) {
      why.append("The agent reported success before the confirmation it depends on");
      if (e.prematureSuccesses() > 0) {
        why.append(" (").append(e.prematureSuccesses()).append(" premature successes");
        e.meanReceiptLagSec()
            .ifPresent(
                lag ->
                    why.append(", the receipt arriving a mean ")
                        .append(String.format(Locale.ROOT, "%.1f", lag))
                        .append(" s later"));
        why.append(')');
      }
      why.append(", so users were told something was done that was not done yet. ");
    }
    if (e.thorns(ThornKind.DELAY) > 0) {
      why.append("Outcomes arrived late (")
          .append(e.thorns(ThornKind.DELAY))
          .append(" delay thorns): a local time")
          .append(" read as if it were UTC is off by the user's offset. ");
    }
    if (e.timestampInconsistencies() > 0 || e.thorns(ThornKind.TIMESTAMP) > 0) {
      why.append("Naive and zoned timestamps were mixed in the same window. ");
    }
    why.append("This change reads local times in the zone the code already has for the user");
    if (gating(e)) {
      why.append(
              " and, where the code holds the confirmation as a future, reports success only once it is in,")
          .append(" waiting at most ")
          .append(ReceiptGate.human(confirmationTimeout))
          .append(" and saying \"pending\" otherwise.");
    } else {
      why.append(", and gives the timestamps it writes an offset.");
    }
    return why.toString();
  }

  /**
   * Receipt gating is called for by premature successes or delays, not by mixed timestamps alone.
   */
  private static boolean gating(Evidence e) {
    return e.prematureSuccesses() > 0
        || e.thorns(ThornKind.PREMATURE) > 0
        || e.thorns(ThornKind.DELAY) > 0;
  }
}
