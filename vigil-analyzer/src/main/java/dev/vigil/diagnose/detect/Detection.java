package dev.vigil.diagnose.detect;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/**
 * What one detector found in one window.
 *
 * @param name the detector's name
 * @param count instances found
 * @param evidence the figures it measured and the events it cites (by {@link WindowEvent#ref()});
 *     lists of instances keep the newest {@link Findings#MAX_CITED}, with their total beside them
 * @param summary one sentence with the evidence in numbers, for people, prompt rules and PR notes;
 *     empty when nothing was found, unless the detector has to say what it could not do (the LLM
 *     judge that ran out of budget)
 * @param derived the derived events, in the order found, when the window was read at once ({@link
 *     Detector#detect}); empty in a pass, where they went to the pass's sink as they were found
 * @param cited the newest {@link Findings#MAX_CITED} events the evidence cites, oldest first, for
 *     the report
 */
public record Detection(
    String name,
    int count,
    ObjectNode evidence,
    String summary,
    List<Derived> derived,
    List<WindowEvent> cited) {
  /** Copies the lists. */
  public Detection {
    derived = List.copyOf(derived);
    cited = List.copyOf(cited);
  }

  /** A detection that keeps no cited events. */
  public Detection(
      String name, int count, ObjectNode evidence, String summary, List<Derived> derived) {
    this(name, count, evidence, summary, derived, List.of());
  }

  /**
   * What a detector found, with no figures beyond the count: each derived event is one instance.
   *
   * @param summary one sentence for people; ignored (empty) when nothing was derived
   */
  public static Detection of(String name, List<Derived> derived, String summary) {
    return new Detection(
        name,
        derived.size(),
        JsonNodeFactory.instance.objectNode(),
        derived.isEmpty() ? "" : summary,
        List.copyOf(derived));
  }

  /** This detection listing these derived events (the count stays). */
  public Detection withDerived(List<Derived> list) {
    return new Detection(name, count, evidence, summary, list, cited);
  }

  /** Whether the detector found anything. */
  public boolean fired() {
    return count > 0;
  }
}
