package dev.vigil.diagnose.detect;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A detector that reads the whole window at once ({@link #detect}, derived events listed in its detection): its scan
 * holds the window's events until it finishes, so its memory grows with the window. For detectors of your own and
 * the LLM judge; Vigil's deterministic detectors stream.
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
        window.clear();
        d.derived().forEach(out);
        return d.withDerived(List.of());
      }
    };
  }
}
