package dev.vigil.eval;

import dev.vigil.orchestrate.PassResult;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * The number a session's pass is ranked by, and the level it reached, if it has levels.
 *
 * @param name how reports name it, e.g. {@code alarm.score}
 * @param value the score of a pass; higher means more likely failed
 * @param level the level of a pass ({@code ok}, {@code watch}, {@code alarm}), or a function
 *     returning null
 */
public record Score(
    String name, ToDoubleFunction<PassResult> value, Function<PassResult, String> level) {
  /**
   * The alarm's score and level (docs/DESIGN.md#the-alarm): what {@code eval} measures by default.
   */
  public static final Score ALARM =
      new Score("alarm.score", r -> r.alarm().score(), r -> r.alarm().level());

  /** The snapshot's stress: Vigil's distress signal before the alarm, for comparison. */
  public static final Score STRESS =
      new Score("snapshot.stress", r -> r.snapshot().stress(), r -> null);

  /** The score named {@code alarm} or {@code stress}. */
  public static Score named(String name) {
    return switch (name) {
      case "alarm", "alarm.score" -> ALARM;
      case "stress", "snapshot.stress" -> STRESS;
      default ->
          throw new IllegalArgumentException(
              "no score \"" + name + "\"; the scores are alarm and stress");
    };
  }

  /** Checks the parts. */
  public Score {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(value, "value");
    Objects.requireNonNull(level, "level");
  }
}
