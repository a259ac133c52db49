package dev.vigil.api;

import dev.vigil.adapt.code.CodeProposals;
import dev.vigil.adapt.code.Strategy;
import dev.vigil.diagnose.detect.Detector;
import dev.vigil.diagnose.detect.Detectors;
import dev.vigil.fleet.FleetLayout;
import dev.vigil.fleet.FleetSummary;
import dev.vigil.orchestrate.PassDriver;
import dev.vigil.orchestrate.PassInput;
import dev.vigil.orchestrate.PassOptions;
import dev.vigil.orchestrate.PassResult;
import dev.vigil.orchestrate.ReflectivePass;
import dev.vigil.orchestrate.Rules;
import dev.vigil.orchestrate.Stages;
import dev.vigil.orchestrate.llm.Judge;
import dev.vigil.orchestrate.llm.LlmConfig;
import dev.vigil.orchestrate.llm.LlmDriver;
import dev.vigil.report.Artifacts;
import java.io.IOException;
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
 * Vigil's analyzer as a library (SPEC section 4.13): a reflective pass over a window of events, with the options of
 * {@code run}. {@code run}, {@code watch} and the LLM's tools all go through it.
 *
 * <pre>{@code
 * Analysis a = Analyzer.builder()
 *     .events(Path.of("events.jsonl"))      // or .queue(dir): a Chronicle queue written by vigil.jar
 *     .emobank(Path.of(".vigil/emobank"))
 *     .out(Path.of("output"))
 *     .detector(new MyDetector())           // your own detector beside Vigil's
 *     .build()
 *     .run();                               // writes report.json, report.md, audit.jsonl into out
 * System.out.println(a.result().snapshot().mood());
 * }</pre>
 *
 * <p>An input holding several agents is analyzed as a fleet: each agent gets its own bank and reports under
 * {@code agents/<agent>/}, and {@code out/report.json} is the fleet summary. Bad options and a missing or unreadable
 * input throw {@link IllegalArgumentException} naming them; nothing is written then.
 */
public final class Analyzer {
  private final PassOptions options;
  private final Stages stages;
  private final PassDriver driver;
  private final Clock clock;
  private final InputStream stdin;
  private final boolean writeArtifacts;

  private Analyzer(Builder b, PassOptions options) {
    this.options = options;
    this.stages = b.stages != null ? b.stages : Stages.withStrategies(b.strategies);
    this.driver = b.llm == null ? PassDriver.DETERMINISTIC : new LlmDriver(b.llm, b.clock);
    this.clock = b.clock;
    this.stdin = b.stdin;
    this.writeArtifacts = b.writeArtifacts;
  }

  /** A builder with {@code run}'s defaults. */
  public static Builder builder() {
    return new Builder();
  }

  /** The options every pass of this analyzer starts from. */
  public PassOptions options() {
    return options;
  }

  /**
   * Runs the pass: reads the input once, then one pass (or one per agent of a fleet), each writing its artifacts
   * when asked (the default).
   *
   * @throws IllegalArgumentException naming the input when it is missing or unreadable
   */
  public Analysis run() throws IOException {
    PassInput input = PassInput.read(options, stdin, true);
    FleetLayout layout = FleetLayout.of(options.emobank(), options.out(), input.agents());
    if (!layout.fleet()) {
      return new Analysis(List.of(new Analysis.AgentPass(null, pass(options, input))), false, null);
    }
    List<Analysis.AgentPass> passes = new ArrayList<>();
    for (String agent : input.agents()) {
      PassOptions o = options.forAgent(agent, layout.bank(agent), layout.out(agent));
      passes.add(new Analysis.AgentPass(agent, pass(o, input)));
      if (writeArtifacts) {
        FleetSummary.recordPass(o.out(), agent, o.now(), null);
      }
    }
    return new Analysis(passes, true, writeArtifacts ? FleetSummary.write(options.out(), options.now(), null) : null);
  }

  /**
   * Runs one pass over {@code o}, which names its own input, agent, bank and output ({@code watch}'s passes start
   * from {@link #options()}); writes its artifacts when asked.
   */
  public PassResult run(PassOptions o) throws IOException {
    return pass(o, PassInput.read(o, stdin, false));
  }

  private PassResult pass(PassOptions o, PassInput input) throws IOException {
    PassResult result = new ReflectivePass(clock, stages).run(o, driver, input, Artifacts.passNumber(o.out()));
    if (writeArtifacts) {
      Artifacts.write(result, o.out(), clock);
    }
    return result;
  }

  /** The options of {@code run}, with its defaults; {@link #build()} checks them. */
  public static final class Builder {
    private String events;
    private Path queue;
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
    private Duration retention = Duration.ofHours(168);
    private String detectors = "all";
    private final List<Detector> extraDetectors = new ArrayList<>();
    private final List<Strategy> strategies = new ArrayList<>(CodeProposals.defaultStrategies());
    private LlmConfig llm;
    private Clock clock = Clock.systemUTC();
    private InputStream stdin = InputStream.nullInputStream();
    private Stages stages;
    private boolean writeArtifacts = true;

    private Builder() {}

    /** A JSONL file of events (SPEC section 2); {@code -} reads {@link #stdin}. */
    public Builder events(String file) {
      this.events = file;
      return this;
    }

    /** A JSONL file of events (SPEC section 2). */
    public Builder events(Path file) {
      return events(file.toString());
    }

    /** A Chronicle queue written by the Vigil agent. */
    public Builder queue(Path dir) {
      this.queue = dir;
      return this;
    }

    /** The EmoBank directory (default {@code .vigil/emobank}). */
    public Builder emobank(Path dir) {
      this.emobank = dir;
      return this;
    }

    /** The agent's prompt file, with marked core and adaptive sections; never modified. */
    public Builder prompt(Path file) {
      this.prompt = file;
      return this;
    }

    /** The agent's source tree, for code proposals; never written. */
    public Builder repo(Path dir) {
      this.repo = dir;
      return this;
    }

    /** Jars and directories the repository's sources compile against, so patched files can be compile-checked. */
    public Builder repoClasspath(List<Path> entries) {
      this.repoClasspath = List.copyOf(entries);
      return this;
    }

    /** Where the artifacts go (default {@code output}). */
    public Builder out(Path dir) {
      this.out = dir;
      return this;
    }

    /** The pass's now (default: the clock's instant); makes a pass reproducible. */
    public Builder now(Instant instant) {
      this.now = instant;
      return this;
    }

    /** The window before now (default 24 h). */
    public Builder window(Duration d) {
      this.window = d;
      return this;
    }

    /** At most the newest {@code n} events of the window are used (default 500). */
    public Builder limit(int n) {
      this.limit = n;
      return this;
    }

    /** Half-life of the EmoBank's decay (default 12 h). */
    public Builder halfLife(Duration d) {
      this.halfLife = d;
      return this;
    }

    /** The zone of timestamps without an offset (default UTC). */
    public Builder assumeZone(ZoneId zone) {
      this.assumeZone = zone;
      return this;
    }

    /** The rules file: appraisal table, RBT thresholds, detectors' tunables (default: the built-in rules). */
    public Builder rules(Path file) {
      this.rules = Rules.load(file);
      return this;
    }

    /** Rules already loaded. */
    public Builder rules(Rules loaded) {
      this.rules = loaded;
      return this;
    }

    /** EmoBank rows older than this before now are compacted into per-episode totals (default 168 h). */
    public Builder retention(Duration d) {
      this.retention = d;
      return this;
    }

    /** Vigil's detectors to run: {@code all} (default), {@code none} or a comma-separated list of names. */
    public Builder detectors(String spec) {
      this.detectors = spec;
      return this;
    }

    /** Adds a detector of your own; it runs after Vigil's, and its derived events are appraised like any other. */
    public Builder detector(Detector detector) {
      this.extraDetectors.add(Objects.requireNonNull(detector, "detector"));
      return this;
    }

    /** Adds a code strategy of your own; it is scored beside Vigil's, which win ties. */
    public Builder strategy(Strategy strategy) {
      this.strategies.add(Objects.requireNonNull(strategy, "strategy"));
      return this;
    }

    /**
     * Lets this LLM drive the stages through its tools (the deterministic path finishes what it leaves) and judge,
     * after the detectors, the turns that wrote or claimed a write against the {@link #prompt prompt}'s
     * instructions (the detector {@code judge}).
     */
    public Builder llm(LlmConfig config) {
      this.llm = config;
      return this;
    }

    /** The one time source: the default now, kept prompt versions, the LLM's budget (default: the system's UTC). */
    public Builder clock(Clock c) {
      this.clock = c;
      return this;
    }

    /** What {@code events("-")} reads (default: nothing). */
    public Builder stdin(InputStream in) {
      this.stdin = in;
      return this;
    }

    /** The work of each stage (default: Vigil's own); tests swap one with a lambda. */
    public Builder stages(Stages s) {
      this.stages = s;
      return this;
    }

    /** Whether passes write their artifacts into {@code out} (default true). */
    public Builder writeArtifacts(boolean write) {
      this.writeArtifacts = write;
      return this;
    }

    /**
     * Checks the options and makes the analyzer.
     *
     * @throws IllegalArgumentException naming the option that is missing or wrong
     */
    public Analyzer build() {
      if ((events == null) == (queue == null)) {
        throw new IllegalArgumentException("give exactly one input: events (a JSONL file) or queue (a directory)");
      }
      positive(window, "window");
      positive(halfLife, "half-life");
      positive(retention, "retention");
      if (limit <= 0) {
        throw new IllegalArgumentException("limit must be positive, not " + limit);
      }
      Rules r = rules != null ? rules : Rules.defaults();
      Detectors selected = Detectors.select(detectors, r.detectors()).plus(extraDetectors);
      if (llm != null) {
        selected = selected.plus(List.of(Judge.of(llm, clock, prompt, r.detectors().roles()))); // the LLM judge runs last (SPEC 4.8)
      }
      PassOptions o = new PassOptions(events, queue, emobank, prompt, repo, out, now != null ? now : clock.instant(),
          window, limit, halfLife, assumeZone, r, retention, selected,
          new CodeProposals.Settings(repoClasspath, "git", Duration.ofSeconds(30)));
      return new Analyzer(this, o);
    }

    private static void positive(Duration d, String name) {
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(name + " must be positive, not " + d);
      }
    }
  }
}
