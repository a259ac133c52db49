package dev.vigil.eval;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;

/**
 * Group-disjoint folds for cross-validation: every session of a group falls in the same fold, so
 * that a model is never scored on a task, customer or scenario it saw in training. The groups, in a
 * shuffled order fixed by the seed, each go to the fold with the fewest sessions so far.
 */
final class GroupFolds {
  private GroupFolds() {}

  /** How many distinct groups there are. */
  static int count(List<String> groups) {
    return new TreeSet<>(groups).size();
  }

  /**
   * The fold of each session, 0 to {@code k - 1}.
   *
   * @param groups each session's group
   */
  static int[] of(List<String> groups, int k, long seed) {
    Map<String, List<Integer>> members = new LinkedHashMap<>();
    new TreeSet<>(groups).forEach(g -> members.put(g, new ArrayList<>()));
    for (int i = 0; i < groups.size(); i++) {
      members.get(groups.get(i)).add(i);
    }
    List<String> order = new ArrayList<>(members.keySet());
    Collections.shuffle(order, new Random(seed));
    int[] size = new int[k];
    int[] fold = new int[groups.size()];
    for (String g : order) {
      int smallest = 0;
      for (int f = 1; f < k; f++) {
        if (size[f] < size[smallest]) {
          smallest = f;
        }
      }
      for (int i : members.get(g)) {
        fold[i] = smallest;
      }
      size[smallest] += members.get(g).size();
    }
    return fold;
  }
}
