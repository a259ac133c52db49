package dev.vigil.diagnose;

import java.util.List;

/**
 * The Roses/Buds/Thorns diagnosis of one pass (docs/DESIGN.md#roses-buds-and-thorns).
 *
 * @param roses stable wins
 * @param buds emerging opportunities
 * @param thorns systematic failures
 * @param topThorns causes ranked by summed decayed thorn intensity
 * @param promptRulesToAdd rules for the prompt's adaptive section, from the thorn causes
 * @param rowsConsidered how many live rows of the window were classified (at most 200)
 * @param provisional true when built from the last snapshot because the diagnosis stage failed
 */
public record Diagnosis(
    List<Finding> roses,
    List<Finding> buds,
    List<Finding> thorns,
    List<ThornCause> topThorns,
    List<String> promptRulesToAdd,
    int rowsConsidered,
    boolean provisional) {

  /** The line the report prints when nothing went clearly well. */
  public static final String NO_ROSES = "No roses: nothing in this window went clearly well.";

  /** Copies the lists: a diagnosis handed from stage to stage never changes. */
  public Diagnosis {
    roses = List.copyOf(roses);
    buds = List.copyOf(buds);
    thorns = List.copyOf(thorns);
    topThorns = List.copyOf(topThorns);
    promptRulesToAdd = List.copyOf(promptRulesToAdd);
  }

  /** True when there is not a single rose. */
  public boolean noRoses() {
    return roses.isEmpty();
  }
}
