package dev.vigil.api;

import dev.vigil.adapt.code.CodeProposals;
import dev.vigil.adapt.code.Strategy;
import dev.vigil.diagnose.detect.Detector;
import dev.vigil.diagnose.detect.Detectors;
import dev.vigil.dialogue.Claims;
import dev.vigil.ingest.otlp.OtlpFile;
import dev.vigil.orchestrate.PassDriver;
import dev.vigil.orchestrate.PassOptions;
import dev.vigil.orchestrate.Rules;
import dev.vigil.orchestrate.Stages;
import dev.vigil.orchestrate.llm.Judge;
import dev.vigil.orchestrate.llm.LlmConfig;
import dev.vigil.orchestrate.llm.LlmDriver;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The options of an {@link Analyzer}: those of {@code run}, with its defaults, and the parts a
 * library user may add or swap (detectors, strategies, stages, the clock); {@link #build()} checks
 * them.
 */
public final class AnalyzerBuilder {
  private String events;
  private Path queue;
  private Path otlp;
  private Path emobank = Path.of(".vigil/emobank");
  private Path prompt;
  private Path repo;
  private List<Path> repoClasspath = List.of();
  private Path out = Path.of("output");
  private Instant now;
  private Duration window = Duration.ofHours(24);
  private int limit = 500;
  private Duration halfLife = Duration.ofHours(12);
  private ZoneId assumeZone = ZoneOffset.UTC;
  private Rules rules;
  private Duration retention = Duration.ofDays(7);
  private String detectors = "all";
  private final List<Detector> extraDetectors = new ArrayList<>();
  private final List<Strategy> strategies = new ArrayList<>(CodeProposals.defaultStrategies());
  private LlmConfig llm;
  private Clock clock = Clock.systemUTC();
  private InputStream stdin = InputStream.nullInputStream();
  private Stages stages;
  private boolean writeArtifacts = true;

  AnalyzerBuilder() {}

  /** A JSONL file of events (docs/DESIGN.md#the-event); {@code -} reads {@link #stdin}. */
  public AnalyzerBuilder events(String file) {
    this.events = file;
    return this;
  }

  /** A JSONL file of events (docs/DESIGN.md#the-event). */
  public AnalyzerBuilder events(Path file) {
    return events(file.toString());
  }

  /**
   * OpenTelemetry traces, OTLP JSON with one export request per line (docs/OPENTELEMETRY.md): the
   * pass reads the events they map to, which it writes to {@code otlp-events.jsonl} in the output
   * directory so that its evidence cites lines a user can open.
   */
  public AnalyzerBuilder otlp(Path file) {
    this.otlp = file;
    return this;
  }

  /** A Chronicle queue written by the Vigil agent. */
  public AnalyzerBuilder queue(Path dir) {
    this.queue = dir;
    return this;
  }

  /** The EmoBank directory (default {@code .vigil/emobank}). */
  public AnalyzerBuilder emobank(Path dir) {
    this.emobank = dir;
    return this;
  }

  /** The agent's prompt file, with marked core and adaptive sections; never modified. */
  public AnalyzerBuilder prompt(Path file) {
    this.prompt = file;
    return this;
  }

  /** The agent's source tree, for code proposals; never written. */
  public AnalyzerBuilder repo(Path dir) {
    this.repo = dir;
    return this;
  }

  /**
   * Jars and directories the repository's sources compile against, so patched files can be
   * compile-checked.
   */
  public AnalyzerBuilder repoClasspath(List<Path> entries) {
    this.repoClasspath = List.copyOf(entries);
    return this;
  }

  /** Where the artifacts go (default {@code output}). */
  public AnalyzerBuilder out(Path dir) {
    this.out = dir;
    return this;
  }

  /** The pass's now (default: the clock's instant); makes a pass reproducible. */
  public AnalyzerBuilder now(Instant instant) {
    this.now = instant;
    return this;
  }

  /** The window before now (default 24 h). */
  public AnalyzerBuilder window(Duration d) {
    this.window = d;
    return this;
  }

  /** At most the newest {@code n} events of the window are used (default 500). */
  public AnalyzerBuilder limit(int n) {
    this.limit = n;
    return this;
  }

  /** Half-life of the EmoBank's decay (default 12 h). */
  public AnalyzerBuilder halfLife(Duration d) {
    this.halfLife = d;
    return this;
  }

  /** The zone of timestamps without an offset (default UTC). */
  public AnalyzerBuilder assumeZone(ZoneId zone) {
    this.assumeZone = zone;
    return this;
  }

  /**
   * The rules file: appraisal table, RBT thresholds, detectors' tunables (default: the built-in
   * rules).
   */
  public AnalyzerBuilder rules(Path file) {
    this.rules = Rules.load(file);
    return this;
  }

  /** Rules already loaded. */
  public AnalyzerBuilder rules(Rules loaded) {
    this.rules = loaded;
    return this;
  }

  /**
   * EmoBank rows older than this before now are compacted into per-episode totals (default 168 h).
   */
  public AnalyzerBuilder retention(Duration d) {
    this.retention = d;
    return this;
  }

  /**
   * Vigil's detectors to run: {@code all} (default), {@code none} or a comma-separated list of
   * names.
   */
  public AnalyzerBuilder detectors(String spec) {
    this.detectors = spec;
    return this;
  }

  /**
   * Adds a detector of your own; it runs after Vigil's, and its derived events are appraised like
   * any other.
   */
  public AnalyzerBuilder detector(Detector detector) {
    this.extraDetectors.add(Objects.requireNonNull(detector, "detector"));
    return this;
  }

  /** Adds a detector of your own that looks at one event at a time; see {@link EventDetector}. */
  public AnalyzerBuilder detector(EventDetector detector) {
    return detector(new EventDetectorAdapter(Objects.requireNonNull(detector, "detector")));
  }

  /** Adds a code strategy of your own; it is scored beside Vigil's, which win ties. */
  public AnalyzerBuilder strategy(Strategy strategy) {
    this.strategies.add(Objects.requireNonNull(strategy, "strategy"));
    return this;
  }

  /**
   * Lets this LLM drive the stages through its tools; the deterministic path finishes what it
   * leaves.
   */
  public AnalyzerBuilder llm(LlmConfig config) {
    this.llm = config;
    return this;
  }

  /**
   * The one time source: the default now, kept prompt versions, the LLM's budget (default: the
   * system's UTC).
   */
  public AnalyzerBuilder clock(Clock c) {
    this.clock = c;
    return this;
  }

  /** What {@code events("-")} reads (default: nothing). */
  public AnalyzerBuilder stdin(InputStream in) {
    this.stdin = in;
    return this;
  }

  /** The work of each stage (default: Vigil's own); tests swap one with a lambda. */
  public AnalyzerBuilder stages(Stages s) {
    this.stages = s;
    return this;
  }

  /** Whether passes write their artifacts into {@code out} (default true). */
  public AnalyzerBuilder writeArtifacts(boolean write) {
    this.writeArtifacts = write;
    return this;
  }

  /**
   * Checks the options and makes the analyzer.
   *
   * @throws IllegalArgumentException naming the option that is missing or wrong
   */
  public Analyzer build() {
    int inputs = (events != null ? 1 : 0) + (queue != null ? 1 : 0) + (otlp != null ? 1 : 0);
    if (inputs != 1) {
      throw new IllegalArgumentException(
          "give exactly one input: events (a JSONL file), otlp (an OTLP JSON file) or queue (a"
              + " directory)");
    }
    if (otlp != null) {
      OtlpFile.check(otlp);
    }
    positive(window, "window");
    positive(halfLife, "half-life");
    positive(retention, "retention");
    if (limit <= 0) {
      throw new IllegalArgumentException("limit must be positive, not " + limit);
    }
    Rules r = rules != null ? rules : Rules.defaults();
    Detectors selected =
        Detectors.select(detectors, r.detectors(), r.policies().detectors()).plus(extraDetectors);
    if (llm != null) {
      // the LLM judge runs last (docs/DETECTORS.md#the-llm-judge)
      selected =
          selected.plus(
              List.of(
                  Judge.of(
                      llm,
                      clock,
                      prompt,
                      r.detectors().roles(),
                      new Claims(r.detectors().dialogue().claims()))));
    }
    PassOptions o =
        new PassOptions(
            otlp != null ? out.resolve(Analyzer.OTLP_EVENTS).toString() : events,
            queue,
            emobank,
            prompt,
            repo,
            out,
            now != null ? now : clock.instant(),
            window,
            limit,
            halfLife,
            assumeZone,
            r,
            retention,
            selected,
            new CodeProposals.Settings(repoClasspath, "git", Duration.ofSeconds(30)));
    return new Analyzer(
        o,
        stages != null ? stages : Stages.withStrategies(strategies),
        llm == null ? PassDriver.DETERMINISTIC : new LlmDriver(llm, clock),
        clock,
        stdin,
        writeArtifacts,
        otlp);
  }

  private static void positive(Duration d, String name) {
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + " must be positive, not " + d);
    }
  }
}
