package dev.vigil.diagnose.detect;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * {@code failure_plateau} (docs/DETECTORS.md; the field report's diagnostic blindness, "42
 * different rephrasings of the same diagnosis"): the same failure said in different words, so that
 * string comparison never sees the repeat.
 *
 * <p>Failures ({@code fail}, {@code timeout}, {@code error}) are taken per kind in time order. A
 * plateau is a maximal run of consecutive failures of one kind whose messages all share at least
 * {@code shared_words} (3) {@link ContentWords content words}; it counts once it is {@code run} (3)
 * failures long. A failure that breaks the run starts the next one, together with the failure
 * before it when those two share enough words.
 *
 * <p>Streaming, in memory bounded per kind: a kind's open run keeps its length, the words all its
 * failures share, its first failure, the one that made it long enough, its newest {@value #TAIL}
 * failures and the refs of its newest {@value Findings#MAX_CITED}; a plateau is judged when a
 * failure breaks it or the window ends. At most {@value #MAX_KINDS} kinds are followed; failures of
 * further kinds are counted ({@code untracked_failures}).
 *
 * <p>Derived event: {@code <kind>.failure_plateau}, status {@code fail}, at the failure that made
 * the run long enough, payload {@code repeats} and {@code shared_words}. Evidence: the newest
 * {@value Findings#MAX_CITED} plateaus (their {@code refs} the newest {@value Findings#MAX_CITED}
 * of the plateau's, {@code repeats} its length) and {@code plateaus_total}.
 */
final class FailurePlateau implements Detector {
  /** The detector's name. */
  public static final String NAME = "failure_plateau";

  /** Kinds followed in one window. */
  static final int MAX_KINDS = 1_000;

  /** The newest failures of a run kept whole, to cite. */
  static final int TAIL = 5;

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

  @Override
  public Scan scan(Consumer<Derived> derived) {
    return start(derived);
  }

  /** {@link #scan}, with its state open to tests. */
  Reading start(Consumer<Derived> derived) {
    return new Reading(derived);
  }

  /** One kind's open run of failures. */
  private static final class Run {
    Newest<Long> refs = new Newest<>(Findings.MAX_CITED);
    Newest<WindowEvent> tail = new Newest<>(TAIL);
    Set<String> common = Set.of();
    WindowEvent first;
    WindowEvent anchor;
    Set<String> lastWords = Set.of();
    int length;

    void clear() {
      refs = new Newest<>(Findings.MAX_CITED);
      tail = new Newest<>(TAIL);
      first = null;
      anchor = null;
      length = 0;
    }
  }

  /** One window's reading. */
  final class Reading implements Scan {
    private final Findings found;
    private final Map<String, Run> runs = new LinkedHashMap<>();
    private long untracked;
    private int longest;
    private String longestKind;

    private Reading(Consumer<Derived> derived) {
      this.found = new Findings(NAME, derived);
    }

    @Override
    public void accept(WindowEvent w) {
      if (!EventFields.FAILURE.contains(EventFields.status(w.event()))) {
        return;
      }
      String kind = w.event().kind();
      Run r = runs.get(kind);
      if (r == null) {
        if (runs.size() >= MAX_KINDS) {
          untracked++;
          return;
        }
        r = new Run();
        runs.put(kind, r);
      }
      Set<String> words = ContentWords.of(EventFields.failureMessage(w.event()));
      Set<String> next = r.length == 0 ? words : intersect(r.common, words);
      if (next.size() >= shared) {
        append(r, w, words);
        r.common = next;
        return;
      }
      close(kind, r);
      WindowEvent last = r.tail.last();
      Set<String> lastWords = r.lastWords;
      Set<String> pair = last == null ? Set.of() : intersect(lastWords, words);
      r.clear();
      if (pair.size() >= shared) {
        append(r, last, lastWords);
        r.common = pair;
      } else {
        r.common = words;
      }
      append(r, w, words);
    }

    @Override
    public Detection finish() {
      runs.forEach(this::close);
      runs.clear();
      ObjectNode evidence = JsonNodeFactory.instance.objectNode();
      if (untracked > 0) {
        evidence.put("untracked_failures", untracked);
      }
      evidence.putArray("plateaus");
      int n = found.count();
      String summary =
          n == 0
              ? ""
              : n
                  + (n == 1 ? " plateau" : " plateaus")
                  + " of rephrased failures; longest: "
                  + longest
                  + " failures of "
                  + longestKind
                  + " saying the same thing";
      return found.detection(evidence, summary);
    }

    /** Failures held whole, over all kinds. */
    int held() {
      return runs.values().stream()
          .mapToInt(
              r -> r.tail.items().size() + (r.first != null ? 1 : 0) + (r.anchor != null ? 1 : 0))
          .sum();
    }

    private void append(Run r, WindowEvent w, Set<String> words) {
      r.length++;
      if (r.length == 1) {
        r.first = w;
      }
      if (r.length == run) {
        r.anchor = w;
      }
      r.refs.add(w.ref());
      r.tail.add(w);
      r.lastWords = words;
    }

    private void close(String kind, Run r) {
      if (r.length < run) {
        return;
      }
      ObjectNode p = found.entry("plateaus").put("kind", kind).put("repeats", r.length);
      ArrayNode words = p.putArray("shared_words");
      r.common.forEach(words::add);
      ArrayNode refs = p.putArray("refs");
      r.refs.items().forEach(refs::add);
      ObjectNode payload = JsonNodeFactory.instance.objectNode().put("repeats", r.length);
      payload.set("shared_words", words.deepCopy());
      found.derive(
          r.first,
          EventFields.derive(
              r.anchor.event(), kind + ".failure_plateau", "fail", r.anchor.event().ts(), payload));
      found.cite(r.anchor);
      r.tail.items().forEach(found::cite);
      if (r.length > longest) {
        longest = r.length;
        longestKind = kind;
      }
    }
  }

  private static Set<String> intersect(Set<String> a, Set<String> b) {
    Set<String> out = new TreeSet<>(a);
    out.retainAll(b);
    return out;
  }
}
