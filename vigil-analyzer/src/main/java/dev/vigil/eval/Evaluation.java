package dev.vigil.eval;

import dev.vigil.api.Analysis;
import dev.vigil.api.Analyzer;
import dev.vigil.api.AnalyzerBuilder;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.learn.SessionModel;
import dev.vigil.orchestrate.PassResult;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;

/**
 * Measures how well Vigil separates failed from good sessions (docs/EVAL.md): the events are split
 * by session (by agent for events without one), and each labelled session gets a pass of its own
 * over all of its events through {@link Analyzer}, with a fresh EmoBank in a temporary directory,
 * {@code now} at its last event and no artifacts written. The report gives the AUROC of the pass's
 * score for predicting the label, with a bootstrap interval, and each detector's precision and
 * recall.
 *
 * <pre>{@code
 * EvalReport r = Evaluation.builder()
 *     .events(Path.of("events.jsonl")).labels(Path.of("labels.jsonl"))
 *     .analyzer(b -> b.rules(Path.of("rules.json")))
 *     .build().run();
 * System.out.println(r.auroc());
 * }</pre>
 */
public final class Evaluation {
  /**
   * A session's pass always sees all of its events: its window is at least this long, its limit
   * this large.
   */
  static final Duration MIN_WINDOW = Duration.ofHours(24);

  static final int MIN_LIMIT = 500;

  private final Builder b;

  private Evaluation(Builder b) {
    this.b = b;
  }

  /** A builder; events and labels are required. */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Runs one pass per labelled session that has events and measures the score.
   *
   * @throws IllegalArgumentException naming the input when a file is missing or unreadable, or no
   *     labelled session has events
   */
  public EvalReport run() throws IOException {
    Labels labels = Labels.read(b.labels);
    SessionEvents events = SessionEvents.read(b.events, b.assumeZone);
    List<String> unknown = new ArrayList<>();
    List<String> labelled = new ArrayList<>();
    for (String s : labels.failed().keySet()) {
      (events.sessions().containsKey(s) ? labelled : unknown).add(s);
    }
    if (labelled.isEmpty()) {
      throw new IllegalArgumentException(
          "no session of labels file "
              + b.labels
              + " has events in "
              + b.events
              + " ("
              + labels.failed().size()
              + " labels, "
              + events.sessions().size()
              + " sessions in the events; "
              + "a session is an event's \"session\", or its \"agent\" when it has none)");
    }
    Progress progress =
        new Progress(b.progress, b.clock, b.progressEverySessions, b.progressEveryTime);
    progress.start(labelled.size());
    List<SessionScore> scores = new ArrayList<>();
    Set<String> detectors = new LinkedHashSet<>();
    Path tmp = Files.createTempDirectory("vigil-eval");
    try {
      for (String s : labelled) {
        scores.add(pass(s, labels.failed().get(s), events.sessions().get(s), tmp, detectors));
        progress.done(scores.size());
      }
    } finally {
      deleteTree(tmp);
    }
    int unlabelled =
        (int)
            events.sessions().keySet().stream()
                .filter(s -> !labels.failed().containsKey(s))
                .count();
    EvalReport report =
        EvalReport.of(
            b.events,
            b.labels,
            b.score.name(),
            scores,
            List.copyOf(detectors),
            labels.badLines(),
            unknown,
            unlabelled,
            events.stats(),
            b.bootstrap);
    return b.model == null
        ? report
        : report.inSample((int) labelled.stream().filter(b.model::trainedOn).count());
  }

  private SessionScore pass(
      String name, boolean failed, SessionEvents.Session s, Path tmp, Set<String> detectors)
      throws IOException {
    Path dir = Files.createTempDirectory(tmp, "session");
    Duration span = Duration.between(s.first(), s.last()).plusSeconds(1);
    Analyzer analyzer =
        b.analyzer
            .apply(Analyzer.builder())
            .events("-")
            .stdin(new ByteArrayInputStream(s.jsonl()))
            .emobank(dir.resolve("emobank"))
            .out(b.reports != null ? b.reports.resolve(SessionDirs.name(name)) : dir.resolve("out"))
            .now(s.last())
            .window(span.compareTo(MIN_WINDOW) > 0 ? span : MIN_WINDOW)
            .limit(Math.max(MIN_LIMIT, s.size()))
            .clock(b.clock)
            .writeArtifacts(b.reports != null)
            .build();
    Analysis analysis = analyzer.run();
    double score = 0;
    String level = null;
    Set<String> fired = new LinkedHashSet<>();
    for (Analysis.AgentPass p : analysis.passes()) { // one, unless the session spans several agents
      PassResult r = p.result();
      double v = b.score.value().applyAsDouble(r);
      if (level == null || v > score) {
        score = v;
        level = b.score.level().apply(r);
      }
      for (Detection d : r.detections()) {
        detectors.add(d.name());
        if (d.fired()) {
          fired.add(d.name());
        }
      }
    }
    deleteTree(dir);
    return new SessionScore(
        name, failed, s.size(), score, level, List.copyOf(fired), analysis.degraded());
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /** The inputs and settings of an evaluation. */
  public static final class Builder {
    private Path events;
    private Path labels;
    private ZoneId assumeZone = ZoneOffset.UTC;
    private UnaryOperator<AnalyzerBuilder> analyzer = UnaryOperator.identity();
    private Score score = Score.ALARM;
    private Bootstrap bootstrap = Bootstrap.DEFAULT;
    private Consumer<String> progress = line -> {};
    private Clock clock = Clock.systemUTC();
    private Path reports;
    private SessionModel model;
    private int progressEverySessions = 50;
    private Duration progressEveryTime = Duration.ofSeconds(5);

    private Builder() {}

    /** The events, JSONL (docs/DESIGN.md#the-event). */
    public Builder events(Path file) {
      this.events = file;
      return this;
    }

    /** The labels, JSON lines {@code {"session": "...", "failed": true|false}}. */
    public Builder labels(Path file) {
      this.labels = file;
      return this;
    }

    /** The zone of timestamps without an offset (default UTC). */
    public Builder assumeZone(ZoneId zone) {
      this.assumeZone = zone;
      return this;
    }

    /**
     * Settings for each session's analyzer (rules, detectors, half-life...); the evaluation then
     * sets its input, bank, output, now, window and limit itself.
     */
    public Builder analyzer(UnaryOperator<AnalyzerBuilder> settings) {
      this.analyzer = Objects.requireNonNull(settings, "settings");
      return this;
    }

    /** What a session is ranked by (default: the alarm's score). */
    public Builder score(Score s) {
      this.score = Objects.requireNonNull(s, "score");
      return this;
    }

    /** The bootstrap of the AUROC's interval (default 2000 resamples, a fixed seed). */
    public Builder bootstrap(int resamples, long seed) {
      this.bootstrap = new Bootstrap(resamples, seed);
      return this;
    }

    /**
     * Where progress lines go (default: nowhere), and how often: every N sessions or every
     * interval.
     */
    public Builder progress(Consumer<String> sink, int everySessions, Duration every) {
      if (everySessions < 1) {
        throw new IllegalArgumentException(
            "progress every must be at least 1 session, not " + everySessions);
      }
      this.progress = Objects.requireNonNull(sink, "sink");
      this.progressEverySessions = everySessions;
      this.progressEveryTime = every;
      return this;
    }

    /**
     * Writes each session's artifacts (report.json, report.md, report.html, audit.jsonl) under
     * {@code dir/<session>/}; by default no artifacts are written.
     */
    public Builder reports(Path dir) {
      this.reports = dir;
      return this;
    }

    /**
     * The model the analyzer's rules carry ({@code --model}), so that the report says how many
     * labelled sessions it was trained on; null: none.
     */
    public Builder model(SessionModel m) {
      this.model = m;
      return this;
    }

    /** The clock of progress lines and of each analyzer (default: the system's UTC). */
    public Builder clock(Clock c) {
      this.clock = c;
      return this;
    }

    /**
     * Makes the evaluation.
     *
     * @throws IllegalArgumentException when events or labels are missing
     */
    public Evaluation build() {
      if (events == null || labels == null) {
        throw new IllegalArgumentException(
            "an evaluation needs both an events file and a labels file");
      }
      return new Evaluation(this);
    }
  }
}
