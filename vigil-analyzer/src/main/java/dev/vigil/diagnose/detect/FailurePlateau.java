package dev.vigil.diagnose.detect;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * {@code failure_plateau} (SPEC section 4.4; the field report's diagnostic blindness, "42 different rephrasings of
 * the same diagnosis"): the same failure said in different words, so that string comparison never sees the repeat.
 *
 * <p>Failures ({@code fail}, {@code timeout}, {@code error}) are taken per kind in time order. A plateau is a
 * maximal run of consecutive failures of one kind whose messages all share at least {@code shared_words} (3)
 * {@link ContentWords content words}; it counts once it is {@code run} (3) failures long. A failure that breaks the
 * run starts the next one, together with the failure before it when those two share enough words.
 *
 * <p>Derived event: {@code <kind>.failure_plateau}, status {@code fail}, at the failure that made the run long
 * enough, payload {@code repeats} and {@code shared_words}.
 */
final class FailurePlateau extends WholeWindowDetector {
  /** The detector's name. */
  public static final String NAME = "failure_plateau";

  private final int run;
  private final int shared;

  /** A detector with this run length and word overlap. */
  public FailurePlateau(DetectorSettings settings) {
    this.run = settings.plateauRun();
    this.shared = settings.plateauSharedWords();
  }

  @Override
  public String name() {
    return NAME;
  }

  private record Failure(WindowEvent event, Set<String> words) {}

  @Override
  public Detection detect(List<WindowEvent> window) {
    Map<String, List<Failure>> byKind = new LinkedHashMap<>();
    for (WindowEvent w : window) {
      if (EventFields.FAILURE.contains(EventFields.status(w.event()))) {
        byKind.computeIfAbsent(w.event().kind(), k -> new ArrayList<>())
            .add(new Failure(w, ContentWords.of(EventFields.failureMessage(w.event()))));
      }
    }
    ObjectNode evidence = JsonNodeFactory.instance.objectNode();
    ArrayNode plateaus = evidence.putArray("plateaus");
    List<Derived> derived = new ArrayList<>();
    for (var entry : byKind.entrySet()) {
      String kind = entry.getKey();
      List<Failure> current = new ArrayList<>();
      Set<String> common = Set.of();
      for (Failure f : entry.getValue()) {
        Set<String> next = current.isEmpty() ? f.words() : intersect(common, f.words());
        if (next.size() >= shared) {
          current.add(f);
          common = next;
          continue;
        }
        close(kind, current, common, plateaus, derived);
        Failure last = current.isEmpty() ? null : current.get(current.size() - 1);
        Set<String> pair = last == null ? Set.of() : intersect(last.words(), f.words());
        current = new ArrayList<>();
        if (pair.size() >= shared) {
          current.add(last);
          common = pair;
        } else {
          common = f.words();
        }
        current.add(f);
      }
      close(kind, current, common, plateaus, derived);
    }
    int longest = 0;
    String longestKind = null;
    for (var p : plateaus) {
      if (p.get("repeats").asInt() > longest) {
        longest = p.get("repeats").asInt();
        longestKind = p.get("kind").asText();
      }
    }
    String summary = derived.isEmpty() ? "" : derived.size() + (derived.size() == 1 ? " plateau" : " plateaus")
        + " of rephrased failures; longest: " + longest + " failures of " + longestKind + " saying the same thing";
    return new Detection(NAME, derived.size(), evidence, summary, derived);
  }

  private void close(String kind, List<Failure> current, Set<String> common, ArrayNode plateaus,
      List<Derived> derived) {
    if (current.size() < run) {
      return;
    }
    ObjectNode p = plateaus.addObject().put("kind", kind).put("repeats", current.size());
    ArrayNode words = p.putArray("shared_words");
    common.forEach(words::add);
    ArrayNode refs = p.putArray("refs");
    current.forEach(f -> refs.add(f.event().ref()));
    WindowEvent at = current.get(run - 1).event();
    ObjectNode payload = JsonNodeFactory.instance.objectNode().put("repeats", current.size());
    payload.set("shared_words", words.deepCopy());
    derived.add(new Derived(EventFields.derive(at.event(), kind + ".failure_plateau", "fail", at.event().ts(),
        payload), current.get(0).event().identity()));
  }

  private static Set<String> intersect(Set<String> a, Set<String> b) {
    Set<String> out = new TreeSet<>(a);
    out.retainAll(b);
    return out;
  }
}
