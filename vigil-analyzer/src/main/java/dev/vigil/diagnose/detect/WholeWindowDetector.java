package dev.vigil.diagnose.detect;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A detector that reads the whole window at once ({@link #detect}, derived events listed in its
 * detection): its scan holds the window's events until it finishes, so its memory grows with the
 * window. For detectors of your own and the LLM judge; Vigil's deterministic detectors stream.
 */
public abstract class WholeWindowDetector implements Detector {
  @Override
  public abstract Detection detect(List<WindowEvent> window);

  @Override
  public final Scan scan(Consumer<Derived> out) {
    List<WindowEvent> window = new ArrayList<>();
    return new Scan() {
      @Override
      public void accept(WindowEvent event) {
        window.add(event);
      }

      @Override
      public Detection finish() {
        Detection d = detect(List.copyOf(window));
        Set<Long> numbers = new HashSet<>();
        numbersIn(d.evidence(), numbers);
        Newest<WindowEvent> cited = new Newest<>(Findings.MAX_CITED);
        window.stream().filter(w -> numbers.contains(w.ref())).forEach(cited::add);
        window.clear();
        d.derived().forEach(out);
        return new Detection(
            d.name(), d.count(), d.evidence(), d.summary(), List.of(), cited.items());
      }
    };
  }

  /** Every whole number in a JSON tree: the refs its evidence may cite are among them. */
  private static void numbersIn(JsonNode node, Set<Long> out) {
    if (node.isIntegralNumber()) {
      out.add(node.asLong());
    } else {
      node.forEach(child -> numbersIn(child, out));
    }
  }
}
