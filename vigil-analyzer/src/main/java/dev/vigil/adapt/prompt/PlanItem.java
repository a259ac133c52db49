package dev.vigil.adapt.prompt;

import dev.vigil.diagnose.ThornCause;
import java.util.Objects;

/**
 * One line of the RBT plan in the adaptive section: a thorn cause with its decayed intensity
 * (docs/DESIGN.md#roses-buds-and-thorns).
 *
 * @param cause {@code kind:status}
 * @param intensity summed decayed intensity of the cause's thorns
 * @param thorns how many thorn rows the cause has
 */
public record PlanItem(String cause, double intensity, int thorns) {

  /** Checks the components: a cause is required. */
  public PlanItem {
    Objects.requireNonNull(cause, "cause");
  }

  /** The plan line of a ranked thorn cause of the diagnosis. */
  public static PlanItem of(ThornCause c) {
    return new PlanItem(c.cause(), c.intensity(), c.thorns());
  }
}
