package dev.vigil.eval;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.diagnose.detect.DetectorScans;
import dev.vigil.diagnose.detect.Detectors;
import dev.vigil.diagnose.detect.WindowEvent;
import dev.vigil.ingest.EventIdentity;
import dev.vigil.learn.Calibration;
import dev.vigil.learn.FeatureSpace;
import dev.vigil.learn.LinearFit;
import dev.vigil.learn.ObservationReader;
import dev.vigil.learn.Observations;
import dev.vigil.learn.SessionModel;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventJson;
import dev.vigil.orchestrate.Rules;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * {@code fit} (docs/MODEL.md): learns what failure looks like in the user's agent from labelled
 * sessions. Each labelled session's events are read through the one model of the dialogue and the
 * detectors (as a pass reads them) into its observations; a nested, group-disjoint cross-validation
 * measures what the model can be expected to do on sessions it never saw ({@code cv_auroc}); the
 * model is then fitted on every session and calibrated on the cross-validated margins.
 */
public final class Fitting {
  /** The fewest sessions of each class per fold. */
  static final int MIN_PER_FOLD = 1;

  /**
   * What a fit made.
   *
   * @param model the model (model.json)
   * @param report fit.json
   * @param text the summary printed
   */
  public record Result(SessionModel model, ObjectNode report, String text) {}

  private final Path events;
  private final Path labels;
  private final Rules rules;
  private final Detectors detectors;
  private final int folds;
  private final long seed;
  private final ZoneId zone;
  private final Consumer<String> progress;
  private final Clock clock;
  private final String version;

  /**
   * A fit.
   *
   * @param detectors the detectors whose findings are features (those a pass with the same rules
   *     runs)
   * @param progress where progress lines go
   * @param version the Vigil version written into model.json
   */
  public Fitting(
      Path events,
      Path labels,
      Rules rules,
      Detectors detectors,
      int folds,
      long seed,
      ZoneId zone,
      Consumer<String> progress,
      Clock clock,
      String version) {
    this.events = Objects.requireNonNull(events, "events");
    this.labels = Objects.requireNonNull(labels, "labels");
    this.rules = rules;
    this.detectors = detectors;
    this.folds = folds;
    this.seed = seed;
    this.zone = zone == null ? ZoneOffset.UTC : zone;
    this.progress = progress;
    this.clock = clock;
    this.version = version;
  }

  /**
   * Fits and measures.
   *
   * @throws IllegalArgumentException naming the input: a file missing, no labelled session with
   *     events, one class only, or too few sessions or groups for the folds (with the counts)
   */
  public Result run() {
    if (folds < 2) {
      throw new IllegalArgumentException("--folds must be at least 2, not " + folds);
    }
    Instant start = clock.instant();
    Labels l = Labels.read(labels);
    SessionEvents ev = SessionEvents.read(events, zone);
    Labelled s = observeLabelled(l, ev);
    List<String> names = s.names();
    boolean[] failed = new boolean[names.size()];
    int nFailed = 0;
    for (int i = 0; i < names.size(); i++) {
      failed[i] = l.failed().get(names.get(i));
      nFailed += failed[i] ? 1 : 0;
    }
    int nGroups = GroupFolds.count(s.groups());
    requireEnough(names.size(), nFailed, nGroups, l, ev);
    progress.accept(
        "read "
            + names.size()
            + " labelled sessions ("
            + nFailed
            + " failed, "
            + nGroups
            + " groups); cross-validating over "
            + folds
            + " group-disjoint folds");
    CrossValidation cv = new CrossValidation(rules.features(), seed);
    CrossValidation.Result r = cv.run(s.obs(), failed, s.groups(), folds, progress);
    Calibration calibration = LinearFit.platt(r.margins(), failed);
    double[] p = new double[names.size()];
    for (int i = 0; i < p.length; i++) {
      p[i] = calibration.probability(r.margins()[i]);
    }
    double cost = mode(r.costs());
    SessionModel model =
        fitModel(s, failed, calibration, SessionModel.Training.of(names, nFailed, nGroups, cost));
    ObjectNode report =
        report(
            names.size(),
            nFailed,
            nGroups,
            r.margins(),
            p,
            failed,
            model,
            l,
            s.unknown(),
            ev,
            r.costs());
    progress.accept("fitted in " + Duration.between(start, clock.instant()).toMillis() + " ms");
    return new Result(model, report, text(report));
  }

  /**
   * The labelled sessions that have events, in the labels' order.
   *
   * @param names their names
   * @param obs their observations
   * @param groups their groups: the label's, else the session's own
   * @param unknown the labelled sessions with no events
   */
  private record Labelled(
      List<String> names, List<Observations> obs, List<String> groups, List<String> unknown) {}

  /**
   * Reads each labelled session's events into its observations, with a progress line every 1000
   * sessions.
   */
  private Labelled observeLabelled(Labels l, SessionEvents ev) {
    Labelled s =
        new Labelled(new ArrayList<>(), new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    int done = 0;
    for (Map.Entry<String, Boolean> e : l.failed().entrySet()) {
      SessionEvents.Session session = ev.sessions().get(e.getKey());
      if (session == null) {
        s.unknown().add(e.getKey());
        continue;
      }
      s.names().add(e.getKey());
      s.obs().add(observe(e.getKey(), session));
      s.groups().add(l.groups().getOrDefault(e.getKey(), "session:" + e.getKey()));
      if (++done % 1000 == 0) {
        progress.accept("read " + done + " of " + l.failed().size() + " labelled sessions");
      }
    }
    return s;
  }

  /**
   * Fails naming the input when no labelled session has events, or there are too few of a class or
   * groups.
   */
  private void requireEnough(int sessions, int nFailed, int nGroups, Labels l, SessionEvents ev) {
    int nGood = sessions - nFailed;
    if (sessions == 0) {
      throw new IllegalArgumentException(
          "no session of labels file "
              + labels
              + " has events in "
              + events
              + " ("
              + l.failed().size()
              + " labels, "
              + ev.sessions().size()
              + " sessions in the events)");
    }
    if (nFailed < folds * MIN_PER_FOLD || nGood < folds * MIN_PER_FOLD || nGroups < folds) {
      throw new IllegalArgumentException(
          "too few sessions to fit with "
              + folds
              + " folds: "
              + nFailed
              + " failed, "
              + nGood
              + " good, in "
              + nGroups
              + " groups (each class needs at least "
              + folds
              + " sessions, and there "
              + "must be at least "
              + folds
              + " groups)");
    }
  }

  /**
   * The model fitted on every labelled session at the training's cost, with the cross-validated
   * calibration.
   */
  private SessionModel fitModel(
      Labelled s, boolean[] failed, Calibration calibration, SessionModel.Training training) {
    FeatureSpace space = FeatureSpace.fit(s.obs(), rules.features());
    List<Map<String, Double>> x = new ArrayList<>();
    List<Boolean> y = new ArrayList<>();
    for (int i = 0; i < s.obs().size(); i++) {
      x.add(space.vector(s.obs().get(i)));
      y.add(failed[i]);
    }
    LinearFit.Weights weights = LinearFit.fit(x, y, training.cost());
    return new SessionModel(
        space, weights, calibration, SessionModel.Levels.DEFAULTS, training, version);
  }

  /**
   * A session's observations: its events in time order, read by the detectors and the dialogue
   * model.
   */
  private Observations observe(String name, SessionEvents.Session s) {
    List<WindowEvent> window = new ArrayList<>(s.size());
    for (int i = 0; i < s.size(); i++) {
      byte[] line = s.lines().get(i);
      try {
        EventJson.Parsed parsed = EventJson.read(line, 0, line.length, zone);
        window.add(
            new WindowEvent(
                parsed.event(),
                EventIdentity.ofContent(parsed.event()),
                s.lineNumbers().get(i),
                parsed.naiveTs()));
      } catch (EventFormatException e) {
        // counted when the file was read
      }
    }
    window.sort(Comparator.comparing(w -> w.event().ts()));
    ObservationReader reader = new ObservationReader(rules.detectors().roles(), rules.features());
    DetectorScans scans = detectors.start(reader::derived, reader.listener());
    for (WindowEvent w : window) {
      scans.accept(w);
      reader.accept(w);
    }
    scans.finish();
    Map<String, Observations> read = reader.finish();
    Observations o = read.get(name);
    return o != null ? o : new Observations(name);
  }

  private static double mode(List<Double> costs) {
    Map<Double, Integer> n = new TreeMap<>();
    costs.forEach(c -> n.merge(c, 1, Integer::sum));
    return n.entrySet().stream()
        .max(
            Map.Entry.<Double, Integer>comparingByValue()
                .thenComparing(Map.Entry.comparingByKey(Comparator.reverseOrder())))
        .map(Map.Entry::getKey)
        .orElse(CrossValidation.DEFAULT_COST);
  }

  private ObjectNode report(
      int sessions,
      int nFailed,
      int groups,
      double[] margins,
      double[] p,
      boolean[] failed,
      SessionModel model,
      Labels l,
      List<String> unknown,
      SessionEvents ev,
      List<Double> costs) {
    ObjectNode n = JsonNodeFactory.instance.objectNode();
    n.put("events", events.toString()).put("labels", labels.toString());
    n.put("sessions", sessions)
        .put("failed", nFailed)
        .put("good", sessions - nFailed)
        .put("groups", groups);
    n.put("folds", folds).put("seed", seed);
    // of the out-of-fold margins themselves: the calibration, fitted on them, must not turn their
    // order around
    Double auroc = Auroc.of(margins, failed);
    n.put("cv_auroc", round(auroc));
    Bootstrap.Interval ci = new Bootstrap(2000, seed).interval(margins, failed);
    ArrayNode c = n.putArray("cv_auroc_ci95");
    c.add(round(ci.low()));
    c.add(round(ci.high()));
    ArrayNode chosen = n.putArray("cv_costs");
    costs.forEach(chosen::add);
    n.put("cost", model.training().cost());
    ArrayNode levels = n.putArray("levels");
    SessionModel.Levels lv = model.levels();
    levels.add(level("watch", lv.watch(), p, failed));
    levels.add(level("alarm", lv.alarm(), p, failed));
    double brier = 0;
    for (int i = 0; i < p.length; i++) {
      brier += (p[i] - (failed[i] ? 1 : 0)) * (p[i] - (failed[i] ? 1 : 0));
    }
    n.put("brier", round(brier / p.length));
    n.set("calibration", calibrationTable(p, failed));
    n.set("toward_failure", strongest(model, true));
    n.set("toward_success", strongest(model, false));
    n.put("features", model.space().size());
    n.put("labels_unknown", unknown.size());
    n.put("labels_bad", l.badLines().size());
    n.put(
        "events_skipped", ev.stats().skipped().values().stream().mapToLong(Long::longValue).sum());
    return n;
  }

  private static ObjectNode level(String name, double threshold, double[] p, boolean[] failed) {
    int flagged = 0;
    int tp = 0;
    int positives = 0;
    for (int i = 0; i < p.length; i++) {
      positives += failed[i] ? 1 : 0;
      if (p[i] >= threshold) {
        flagged++;
        tp += failed[i] ? 1 : 0;
      }
    }
    ObjectNode o =
        JsonNodeFactory.instance
            .objectNode()
            .put("level", name)
            .put("threshold", threshold)
            .put("flagged", flagged);
    if (flagged == 0) {
      o.putNull("precision");
    } else {
      o.put("precision", round((double) tp / flagged));
    }
    o.put("recall", round(positives == 0 ? 0 : (double) tp / positives));
    return o;
  }

  private static ArrayNode calibrationTable(double[] p, boolean[] failed) {
    int bins = 10;
    int[] n = new int[bins];
    double[] predicted = new double[bins];
    int[] observed = new int[bins];
    for (int i = 0; i < p.length; i++) {
      int b = Math.min(bins - 1, (int) (p[i] * bins));
      n[b]++;
      predicted[b] += p[i];
      observed[b] += failed[i] ? 1 : 0;
    }
    ArrayNode out = JsonNodeFactory.instance.arrayNode();
    for (int b = 0; b < bins; b++) {
      if (n[b] > 0) {
        out.addObject()
            .put("from", b / 10.0)
            .put("to", (b + 1) / 10.0)
            .put("sessions", n[b])
            .put("predicted", round(predicted[b] / n[b]))
            .put("observed", round((double) observed[b] / n[b]));
      }
    }
    return out;
  }

  private static ArrayNode strongest(SessionModel m, boolean towardFailure) {
    ArrayNode out = JsonNodeFactory.instance.arrayNode();
    m.weights().weights().entrySet().stream()
        .filter(e -> towardFailure ? e.getValue() > 0 : e.getValue() < 0)
        .sorted(
            towardFailure
                ? Map.Entry.<String, Double>comparingByValue().reversed()
                : Map.Entry.comparingByValue())
        .limit(15)
        .forEach(
            e -> out.addObject().put("feature", e.getKey()).put("weight", round(e.getValue())));
    return out;
  }

  private static String text(ObjectNode r) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "fit: %d sessions (%d failed, %d good) in %d groups%n",
            r.get("sessions").asInt(),
            r.get("failed").asInt(),
            r.get("good").asInt(),
            r.get("groups").asInt()));
    sb.append(
        String.format(
            Locale.ROOT,
            "cv_auroc %.3f (95%% %.3f-%.3f) over %d group-disjoint folds; brier %.3f%n",
            r.get("cv_auroc").asDouble(),
            r.get("cv_auroc_ci95").get(0).asDouble(),
            r.get("cv_auroc_ci95").get(1).asDouble(),
            r.get("folds").asInt(),
            r.get("brier").asDouble()));
    for (var lv : r.get("levels")) {
      sb.append(
          String.format(
              Locale.ROOT,
              "  %-5s p >= %.2f: %d flagged, precision %s, recall %.3f%n",
              lv.get("level").asText(),
              lv.get("threshold").asDouble(),
              lv.get("flagged").asInt(),
              lv.get("precision").isNull()
                  ? "n/a"
                  : String.format(Locale.ROOT, "%.3f", lv.get("precision").asDouble()),
              lv.get("recall").asDouble()));
    }
    sb.append("toward failure:");
    r.get("toward_failure")
        .forEach(f -> sb.append(' ').append(f.get("feature").asText()).append(';'));
    sb.append('\n');
    return sb.toString();
  }

  private static double round(Double v) {
    return v == null ? Double.NaN : Math.round(v * 10_000) / 10_000.0;
  }
}
