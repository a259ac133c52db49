package dev.vigil.adapt.code;

import dev.vigil.diagnose.Diagnosis;
import dev.vigil.diagnose.ThornCause;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * What the diagnosis of a pass says, in the figures the code strategies score and the PR notes
 * quote. The orchestrator fills it from the RBT diagnosis (docs/DESIGN.md#roses-buds-and-thorns)
 * and the detectors (docs/DETECTORS.md); every figure is about the pass's window.
 *
 * @param thornsByCause thorn rows per cause {@code kind:status}, in the diagnosis' ranking order
 *     (the counts of {@code rbt.top_thorns})
 * @param topThornCause the first cause of {@code top_thorns}, or null when there are no thorns
 * @param topThornIntensity its summed decayed intensity (0 when there are no thorns)
 * @param meanReceiptLagSec the {@code premature_success} detector's mean {@code receipt_lag_sec};
 *     empty when the detector did not run or found nothing
 * @param prematureSuccesses instances the {@code premature_success} detector found
 * @param failures events of the window with status {@code fail} or {@code error}, the detectors'
 *     derived events excluded
 * @param timeouts events of the window with status {@code timeout}
 * @param timestampInconsistencies instances the {@code timestamp_inconsistent} detector found (0:
 *     none)
 * @param slowTools tools the {@code latency} detector found slower than their budget
 */
// {@code timeout} above is the status, not the timeouts component Error Prone takes it for
@SuppressWarnings("InvalidParam")
public record Evidence(
    Map<String, Integer> thornsByCause,
    String topThornCause,
    double topThornIntensity,
    OptionalDouble meanReceiptLagSec,
    int prematureSuccesses,
    int failures,
    int timeouts,
    int timestampInconsistencies,
    List<SlowTool> slowTools) {

  /**
   * A tool slower than its budget.
   *
   * @param kind the tool's event kind
   * @param budgetSec its budget, configured or derived (3x the median, at least 1 s)
   * @param slowCalls calls over the budget
   * @param meanDelayedBySec mean of their {@code delayed_by_sec}
   */
  public record SlowTool(String kind, double budgetSec, int slowCalls, double meanDelayedBySec) {}

  /** Copies the collections and checks that no count is negative. */
  public Evidence {
    thornsByCause =
        thornsByCause == null
            ? Map.of()
            : Collections.unmodifiableMap(new LinkedHashMap<>(thornsByCause));
    meanReceiptLagSec = meanReceiptLagSec == null ? OptionalDouble.empty() : meanReceiptLagSec;
    slowTools = slowTools == null ? List.of() : List.copyOf(slowTools);
    thornsByCause.forEach(
        (cause, n) -> {
          if (n == null || n < 0) {
            throw new IllegalArgumentException(
                "evidence: thorn count of cause \""
                    + cause
                    + "\" is "
                    + n
                    + "; counts must be 0 or more");
          }
        });
    nonNegative("prematureSuccesses", prematureSuccesses);
    nonNegative("failures", failures);
    nonNegative("timeouts", timeouts);
    nonNegative("timestampInconsistencies", timestampInconsistencies);
  }

  private static void nonNegative(String name, int value) {
    if (value < 0) {
      throw new IllegalArgumentException(
          "evidence: " + name + " is " + value + "; counts must be 0 or more");
    }
  }

  /** Evidence of nothing: no strategy fires on it. */
  public static Evidence none() {
    return builder().build();
  }

  /** A builder, for the orchestrator. */
  public static Builder builder() {
    return new Builder();
  }

  /** All thorn rows. */
  public int thorns() {
    return thornsByCause.values().stream().mapToInt(Integer::intValue).sum();
  }

  /** Thorn rows whose cause is of the given kind. */
  public int thorns(ThornKind kind) {
    int n = 0;
    for (Map.Entry<String, Integer> e : thornsByCause.entrySet()) {
      if (ThornKind.of(e.getKey()) == kind) {
        n += e.getValue();
      }
    }
    return n;
  }

  /** The kind of the top thorn, or {@link ThornKind#OTHER} when there is none. */
  public ThornKind topThornKind() {
    return topThornCause == null ? ThornKind.OTHER : ThornKind.of(topThornCause);
  }

  /** Builds {@link Evidence} step by step; every figure starts at zero or empty. */
  public static final class Builder {
    private final Map<String, Integer> thornsByCause = new LinkedHashMap<>();
    private String topThornCause;
    private double topThornIntensity;
    private OptionalDouble meanReceiptLagSec = OptionalDouble.empty();
    private int prematureSuccesses;
    private int failures;
    private int timeouts;
    private int timestampInconsistencies;
    private final List<SlowTool> slowTools = new ArrayList<>();

    private Builder() {}

    /** Thorn counts and the top thorn from a diagnosis' {@code top_thorns}. */
    public Builder diagnosis(Diagnosis diagnosis) {
      for (ThornCause t : diagnosis.topThorns()) {
        thorns(t.cause(), t.thorns());
      }
      if (!diagnosis.topThorns().isEmpty()) {
        ThornCause top = diagnosis.topThorns().get(0);
        topThorn(top.cause(), top.intensity());
      }
      return this;
    }

    /** Adds thorn rows of one cause. */
    public Builder thorns(String cause, int count) {
      thornsByCause.merge(cause, count, Integer::sum);
      return this;
    }

    /** The top thorn. */
    public Builder topThorn(String cause, double intensity) {
      this.topThornCause = cause;
      this.topThornIntensity = intensity;
      return this;
    }

    /** The mean receipt lag, in seconds. */
    public Builder meanReceiptLagSec(double seconds) {
      this.meanReceiptLagSec = OptionalDouble.of(seconds);
      return this;
    }

    /** Instances of premature success. */
    public Builder prematureSuccesses(int count) {
      this.prematureSuccesses = count;
      return this;
    }

    /** Failed events. */
    public Builder failures(int count) {
      this.failures = count;
      return this;
    }

    /** Timed-out events. */
    public Builder timeouts(int count) {
      this.timeouts = count;
      return this;
    }

    /** Instances of naive and zoned timestamps mixed. */
    public Builder timestampInconsistencies(int count) {
      this.timestampInconsistencies = count;
      return this;
    }

    /** A tool slower than its budget. */
    public Builder slowTool(String kind, double budgetSec, int slowCalls, double meanDelayedBySec) {
      slowTools.add(new SlowTool(kind, budgetSec, slowCalls, meanDelayedBySec));
      return this;
    }

    /** The evidence. */
    public Evidence build() {
      return new Evidence(
          thornsByCause,
          topThornCause,
          topThornIntensity,
          meanReceiptLagSec,
          prematureSuccesses,
          failures,
          timeouts,
          timestampInconsistencies,
          slowTools);
    }
  }
}
