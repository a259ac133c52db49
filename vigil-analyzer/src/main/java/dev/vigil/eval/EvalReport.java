package dev.vigil.eval;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.ingest.IngestStats;
import dev.vigil.io.AtomicWrite;
import dev.vigil.io.OwnerOnly;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * What an {@link Evaluation} measured: the AUROC of the score with its bootstrap interval (null
 * when the labelled sessions are all of one class), each detector's precision and recall, and what
 * was wrong with the input. Written as {@code eval.json} and {@code eval_sessions.jsonl} (one line
 * per session) by {@link #write}.
 */
public final class EvalReport {
  /** The report's file. */
  public static final String EVAL_JSON = "eval.json";

  /** One line per session: its label, score, level and the detectors that fired. */
  public static final String SESSIONS_JSONL = "eval_sessions.jsonl";

  /** How many bad lines and unknown sessions the report names; the rest are counted. */
  static final int NAMED = 20;

  /**
   * A level at or above which the alarm is read as "failed", for the levels' precision and recall.
   */
  private static final Map<String, Set<String>> LEVELS =
      Map.of("watch_or_alarm", Set.of("watch", "alarm"), "alarm", Set.of("alarm"));

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path events;
  private final Path labels;
  private final String scoreName;
  private final List<SessionScore> sessions;
  private final List<DetectorScore> detectors;
  private final List<DetectorScore> levels;
  private final List<Labels.BadLine> badLines;
  private final List<String> unknown;
  private final int unlabelled;
  private final IngestStats stats;
  private final Bootstrap bootstrap;
  private final Double auroc;
  private final Bootstrap.Interval interval;
  private final int failed;
  private Integer inSample;

  private EvalReport(
      Path events,
      Path labels,
      String scoreName,
      List<SessionScore> sessions,
      List<DetectorScore> detectors,
      List<DetectorScore> levels,
      List<Labels.BadLine> badLines,
      List<String> unknown,
      int unlabelled,
      IngestStats stats,
      Bootstrap bootstrap,
      Double auroc,
      Bootstrap.Interval interval) {
    this.events = events;
    this.labels = labels;
    this.scoreName = scoreName;
    this.sessions = sessions;
    this.detectors = detectors;
    this.levels = levels;
    this.badLines = badLines;
    this.unknown = unknown;
    this.unlabelled = unlabelled;
    this.stats = stats;
    this.bootstrap = bootstrap;
    this.auroc = auroc;
    this.interval = interval;
    this.failed = (int) sessions.stream().filter(SessionScore::failed).count();
  }

  /** Measures the sessions' scores; {@code detectors} names every detector that ran, in order. */
  static EvalReport of(
      Path events,
      Path labels,
      String scoreName,
      List<SessionScore> sessions,
      List<String> detectors,
      List<Labels.BadLine> badLines,
      List<String> unknown,
      int unlabelled,
      IngestStats stats,
      Bootstrap bootstrap) {
    double[] scores = sessions.stream().mapToDouble(SessionScore::score).toArray();
    boolean[] failed = new boolean[sessions.size()];
    for (int i = 0; i < failed.length; i++) {
      failed[i] = sessions.get(i).failed();
    }
    int failures = (int) sessions.stream().filter(SessionScore::failed).count();
    List<DetectorScore> perDetector = new ArrayList<>();
    for (String d : detectors) {
      perDetector.add(flag(d, sessions, failures, s -> s.fired().contains(d)));
    }
    List<DetectorScore> perLevel = new ArrayList<>();
    if (sessions.stream().anyMatch(s -> s.level() != null)) {
      for (String name : List.of("watch_or_alarm", "alarm")) {
        perLevel.add(
            flag(
                name,
                sessions,
                failures,
                s -> s.level() != null && LEVELS.get(name).contains(s.level())));
      }
    }
    return new EvalReport(
        events,
        labels,
        scoreName,
        List.copyOf(sessions),
        perDetector,
        perLevel,
        List.copyOf(badLines),
        List.copyOf(unknown),
        unlabelled,
        stats,
        bootstrap,
        Auroc.of(scores, failed),
        bootstrap.interval(scores, failed));
  }

  private static DetectorScore flag(
      String name,
      List<SessionScore> sessions,
      int failures,
      java.util.function.Predicate<SessionScore> raised) {
    int fired = 0;
    int hits = 0;
    for (SessionScore s : sessions) {
      if (raised.test(s)) {
        fired++;
        hits += s.failed() ? 1 : 0;
      }
    }
    return new DetectorScore(name, fired, hits, failures);
  }

  /**
   * Records that the sessions were scored by a model, {@code n} of them among its training
   * sessions.
   */
  EvalReport inSample(int n) {
    this.inSample = n;
    return this;
  }

  /** With a model: how many labelled sessions it was trained on; null without one. */
  public Integer inSample() {
    return inSample;
  }

  /**
   * The AUROC of the score for predicting failure; null when the labelled sessions are all of one
   * class.
   */
  public Double auroc() {
    return auroc;
  }

  /** The labelled sessions analyzed. */
  public int sessions() {
    return sessions.size();
  }

  /** Of those, labelled failed. */
  public int failed() {
    return failed;
  }

  /** Labels file lines that gave no label. */
  public int badLabelLines() {
    return badLines.size();
  }

  /** Labelled sessions without events. */
  public int unknownSessions() {
    return unknown.size();
  }

  /** The report as {@code eval.json} holds it. */
  public ObjectNode toJson() {
    ObjectNode n = JSON.createObjectNode();
    n.put("events", events.toString()).put("labels", labels.toString());
    n.put("sessions", sessions.size()).put("failed", failed).put("good", sessions.size() - failed);
    n.put("score", scoreName);
    if (auroc == null) {
      n.putNull("auroc");
      n.putNull("auroc_ci95");
      n.put(
          "auroc_undefined",
          "the labelled sessions are all "
              + (failed == 0 ? "good" : "failed")
              + ": the AUROC needs both classes");
    } else {
      n.put("auroc", auroc);
      n.putArray("auroc_ci95").add(interval.low()).add(interval.high());
    }
    if (inSample != null) {
      n.putObject("model")
          .put("in_sample_sessions", inSample)
          .put(
              "figure",
              inSample > 0
                  ? "in-sample: " + inSample + " of the labelled sessions trained the model"
                  : "out-of-sample: no labelled session trained the model");
    }
    n.putObject("bootstrap")
        .put("resamples", bootstrap.resamples())
        .put("seed", bootstrap.seed())
        .put("stratified", true)
        .put("interval", "percentile");
    ObjectNode mean = n.putObject("mean_score");
    mean.put("failed", mean(true)).put("good", mean(false));
    n.set("detectors", scores(detectors));
    if (!levels.isEmpty()) {
      n.set("levels", scores(levels));
    }
    n.put("degraded_passes", sessions.stream().filter(SessionScore::degraded).count());
    n.put("labels_bad_lines", badLines.size());
    ArrayNode bad = n.putArray("labels_bad");
    badLines.stream().limit(NAMED).forEach(b -> bad.add(b.toString()));
    n.put("labels_unknown_sessions", unknown.size());
    ArrayNode unk = n.putArray("labels_unknown");
    unknown.stream().limit(NAMED).forEach(unk::add);
    n.put("sessions_unlabelled", unlabelled);
    n.put("events_read", stats.eventsRead());
    ObjectNode skipped = n.putObject("events_skipped");
    stats.skipped().entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(e -> skipped.put(e.getKey(), e.getValue()));
    return n;
  }

  private ObjectNode scores(List<DetectorScore> list) {
    ObjectNode all = JSON.createObjectNode();
    for (DetectorScore d : list) {
      ObjectNode o =
          all.putObject(d.name()).put("fired", d.fired()).put("true_positives", d.truePositives());
      if (d.precision() == null) {
        o.putNull("precision");
      } else {
        o.put("precision", d.precision());
      }
      if (d.recall() == null) {
        o.putNull("recall");
      } else {
        o.put("recall", d.recall());
      }
    }
    return all;
  }

  private Double mean(boolean label) {
    return sessions.stream()
        .filter(s -> s.failed() == label)
        .mapToDouble(SessionScore::score)
        .boxed()
        .collect(Collectors.averagingDouble(Double::doubleValue))
        .doubleValue();
  }

  /**
   * Writes {@code eval.json} and {@code eval_sessions.jsonl} into {@code dir} (created if missing).
   */
  public void write(Path dir) throws IOException {
    OwnerOnly.createDirectories(dir);
    AtomicWrite.replace(
        dir.resolve(EVAL_JSON),
        JSON.writerWithDefaultPrettyPrinter().writeValueAsString(toJson()) + "\n");
    StringBuilder lines = new StringBuilder();
    for (SessionScore s : sessions) {
      ObjectNode o =
          JSON.createObjectNode()
              .put("session", s.session())
              .put("failed", s.failed())
              .put("events", s.events())
              .put("score", s.score())
              .put("level", s.level())
              .put("degraded", s.degraded());
      ArrayNode fired = o.putArray("fired");
      s.fired().forEach(fired::add);
      lines.append(JSON.writeValueAsString(o)).append('\n');
    }
    AtomicWrite.replace(dir.resolve(SESSIONS_JSONL), lines.toString());
  }

  /**
   * The report for people: the figures, a table of detectors, and what was wrong with the input.
   */
  public String text() {
    StringBuilder t = new StringBuilder();
    t.append(
        String.format(
            Locale.ROOT,
            "eval: %d labelled sessions (%d failed, %d good)%n",
            sessions.size(),
            failed,
            sessions.size() - failed));
    appendAuroc(t);
    t.append(
        String.format(
            Locale.ROOT, "mean %s: failed %.3f, good %.3f%n", scoreName, mean(true), mean(false)));
    table(t, "detector", detectors);
    if (!levels.isEmpty()) {
      table(t, "alarm level", levels);
    }
    long degraded = sessions.stream().filter(SessionScore::degraded).count();
    if (degraded > 0) {
      t.append(degraded).append(" passes finished degraded (internal thorns)\n");
    }
    appendInputProblems(t);
    return t.toString();
  }

  /** The AUROC with its confidence interval, and whether the model trained on these sessions. */
  private void appendAuroc(StringBuilder t) {
    if (auroc == null) {
      t.append("AUROC of ")
          .append(scoreName)
          .append(": undefined (the labelled sessions are all ")
          .append(failed == 0 ? "good" : "failed")
          .append(")\n");
    } else {
      t.append(
          String.format(
              Locale.ROOT,
              "AUROC of %s: %.3f (95 %% CI %.3f-%.3f; %d stratified bootstrap "
                  + "resamples, seed %d)%n",
              scoreName,
              auroc,
              interval.low(),
              interval.high(),
              bootstrap.resamples(),
              bootstrap.seed()));
    }
    if (inSample != null) {
      t.append(
          inSample > 0
              ? "model: "
                  + inSample
                  + " of these "
                  + sessions.size()
                  + " sessions trained it: the "
                  + "AUROC above is in-sample and flatters the model\n"
              : "model: none of these sessions trained it: the AUROC above is out-of-sample\n");
    }
  }

  /** What was wrong with the input: bad label lines, sessions without events or label. */
  private void appendInputProblems(StringBuilder t) {
    if (!badLines.isEmpty()) {
      t.append("labels: ")
          .append(badLines.size())
          .append(" bad lines (")
          .append(
              badLines.stream()
                  .limit(3)
                  .map(Labels.BadLine::toString)
                  .collect(Collectors.joining("; ")))
          .append(badLines.size() > 3 ? "; ..." : "")
          .append(")\n");
    }
    if (!unknown.isEmpty()) {
      t.append("labels: ")
          .append(unknown.size())
          .append(" sessions have no events (")
          .append(unknown.stream().limit(3).collect(Collectors.joining(", ")))
          .append(unknown.size() > 3 ? ", ..." : "")
          .append(")\n");
    }
    if (unlabelled > 0) {
      t.append("events: ").append(unlabelled).append(" sessions have no label (not analyzed)\n");
    }
    if (!stats.skipped().isEmpty()) {
      t.append("events: lines skipped ").append(stats.skipped()).append('\n');
    }
  }

  private static void table(StringBuilder t, String title, List<DetectorScore> rows) {
    int width =
        Math.max(title.length(), rows.stream().mapToInt(d -> d.name().length()).max().orElse(0));
    t.append(
        String.format(
            Locale.ROOT,
            "%-" + width + "s  %6s  %9s  %6s%n",
            title,
            "fired",
            "precision",
            "recall"));
    for (DetectorScore d : rows) {
      t.append(
          String.format(
              Locale.ROOT,
              "%-" + width + "s  %6d  %9s  %6s%n",
              d.name(),
              d.fired(),
              fraction(d.precision()),
              fraction(d.recall())));
    }
  }

  private static String fraction(Double v) {
    return v == null ? "-" : String.format(Locale.ROOT, "%.3f", v);
  }
}
