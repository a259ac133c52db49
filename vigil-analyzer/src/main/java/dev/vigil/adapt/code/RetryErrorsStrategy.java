package dev.vigil.adapt.code;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Bounded retry with jittered exponential backoff around remote calls
 * (docs/ADAPTATION.md#code-proposals).
 *
 * <p>Fires when the evidence shows failures or timeouts (thorns of those kinds, or failed and
 * timed-out events) and the scanner found remote calls. Score: {@link StrategyScore} with the
 * failure and timeout thorns as related, plus 0.2 when the top thorn is one of those kinds and 0.1
 * when events timed out. The rewrite is {@link RetryRewriter}'s: at most 3 attempts, 100-200 ms and
 * then 200-400 ms between them.
 */
public final class RetryErrorsStrategy implements Strategy {
  private static final Set<Category> CATEGORIES = Set.of(Category.REMOTE_CALL);

  @Override
  public String name() {
    return "RetryErrorsStrategy";
  }

  @Override
  public String title() {
    return "Retry remote calls a bounded number of times, with jittered exponential backoff";
  }

  @Override
  public double score(Evidence e, List<Hotspot> hotspots) {
    int related = e.thorns(ThornKind.FAILURE) + e.thorns(ThornKind.TIMEOUT);
    boolean signal = related > 0 || e.failures() > 0 || e.timeouts() > 0;
    ThornKind top = e.topThornKind();
    double bonus =
        (top == ThornKind.FAILURE || top == ThornKind.TIMEOUT ? 0.2 : 0)
            + (e.timeouts() > 0 ? 0.1 : 0);
    return StrategyScore.of(e, related, signal, bonus, hotspots, CATEGORIES);
  }

  @Override
  public Optional<Transformation> transform(
      Path file, String source, Evidence evidence, JavaRepo repo) {
    String path = file.toString().replace('\\', '/');
    if (JavaRepo.isTestSource(path)) {
      return Optional.empty();
    }
    if (!RemoteCall.mayBeIn(source)) {
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
      new RetryRewriter(path, java, changes, notes).rewrite();
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
    StringBuilder why = new StringBuilder("Calls failed");
    int failures = e.thorns(ThornKind.FAILURE);
    int timeouts = e.thorns(ThornKind.TIMEOUT);
    if (e.failures() > 0 || e.timeouts() > 0) {
      why.append(" (")
          .append(e.failures())
          .append(" failed and ")
          .append(e.timeouts())
          .append(" timed-out events");
      why.append(", ").append(failures + timeouts).append(" thorns)");
    } else {
      why.append(" (").append(failures + timeouts).append(" failure and timeout thorns)");
    }
    why.append(
            " and the code never tried again: one transient error became the user's failure. This change")
        .append(
            " retries each remote call up to 3 times, only on errors worth retrying (I/O errors, timeouts,")
        .append(
            " 429/502/503/504 answers, transient SQL failures), waiting 100-200 ms and then 200-400 ms between")
        .append(
            " attempts, with jitter so that clients do not retry in lockstep. Retrying is safe only for idempotent")
        .append(" calls: review each one.");
    return why.toString();
  }
}
