package dev.vigil.adapt.code;

/**
 * The result of one verification of a proposal.
 *
 * @param name what was checked: {@code git apply --check} or {@code compile}
 * @param outcome passed, failed or skipped
 * @param detail what was done, or what went wrong, in words
 */
public record Check(String name, Outcome outcome, String detail) {

  /** How a check ended. */
  public enum Outcome {
    /** The check ran and holds. */
    PASSED,
    /** The check ran and does not hold: the proposal is dropped. */
    FAILED,
    /** The check could not run here; the detail says why. */
    SKIPPED
  }

  /** A check that holds. */
  public static Check passed(String name, String detail) {
    return new Check(name, Outcome.PASSED, detail);
  }

  /** A check that does not hold. */
  public static Check failed(String name, String detail) {
    return new Check(name, Outcome.FAILED, detail);
  }

  /** A check that could not run. */
  public static Check skipped(String name, String detail) {
    return new Check(name, Outcome.SKIPPED, detail);
  }

  /** True unless the check failed. */
  public boolean ok() {
    return outcome != Outcome.FAILED;
  }

  /** {@code name: outcome (detail)}, as the PR note prints it. */
  @Override
  public String toString() {
    return name + ": " + outcome.name().toLowerCase(java.util.Locale.ROOT) + " (" + detail + ")";
  }
}
