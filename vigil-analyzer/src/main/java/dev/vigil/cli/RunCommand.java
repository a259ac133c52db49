package dev.vigil.cli;

import dev.vigil.adapt.code.CodeProposals;
import dev.vigil.diagnose.detect.Detectors;
import dev.vigil.fleet.FleetLayout;
import dev.vigil.fleet.FleetSummary;
import dev.vigil.observe.Timestamps;
import dev.vigil.orchestrate.InternalThorn;
import dev.vigil.orchestrate.PassDriver;
import dev.vigil.orchestrate.PassInput;
import dev.vigil.orchestrate.PassOptions;
import dev.vigil.orchestrate.PassResult;
import dev.vigil.orchestrate.ReflectivePass;
import dev.vigil.orchestrate.Rules;
import dev.vigil.orchestrate.Stages;
import dev.vigil.orchestrate.llm.LlmConfig;
import dev.vigil.orchestrate.llm.LlmDriver;
import dev.vigil.report.Artifacts;
import dev.vigil.report.ReportMarkdown;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.nio.file.Path;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code run}: one reflective pass over a window of events; writes the artifacts and prints a short summary. */
@Command(
    name = "run",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "One reflective pass: ingest the window, appraise, deposit into the EmoBank exactly once, diagnose",
        "Roses/Buds/Thorns, write report.json, report.md and audit.jsonl into --out, print a summary.",
        "Exit 0 success, 1 degraded, 2 bad usage or input."})
class RunCommand extends VigilCommand {
  /** Where the events come from: exactly one. */
  static final class Input {
    @Option(names = "--queue", paramLabel = "DIR", description = "A Chronicle queue written by the Vigil agent.")
    Path queue;

    @Option(names = "--events", paramLabel = "FILE",
        description = "A JSONL file of events (SPEC section 2, the paper's format); - reads stdin.")
    String events;
  }

  @ArgGroup(exclusive = true, multiplicity = "1")
  Input input;

  @Option(names = "--emobank", paramLabel = "DIR", defaultValue = ".vigil/emobank",
      description = "The EmoBank directory (default: ${DEFAULT-VALUE}).")
  Path emobank;

  @Option(names = "--prompt", paramLabel = "FILE",
      description = "The agent's prompt file, with marked core and adaptive sections; never modified: the new "
          + "prompt is written to --out/new_prompt.txt and every version is kept in --out/prompts/.")
  Path prompt;

  @Option(names = "--repo", paramLabel = "DIR",
      description = "The agent's source tree: scanned for hotspots; proposals are unified diffs in --out/proposals/, "
          + "checked with git apply --check and compiled; the tree itself is never written.")
  Path repo;

  @Option(names = "--repo-classpath", paramLabel = "PATHS",
      description = "Jars and directories the --repo sources compile against (path-separator list; a dir/* entry "
          + "means every jar in dir), so that patched files can be compile-checked.")
  String repoClasspath;

  @Option(names = "--out", paramLabel = "DIR", defaultValue = "output",
      description = "Where the artifacts go (default: ${DEFAULT-VALUE}).")
  Path out;

  @Option(names = "--now", paramLabel = "ISO",
      description = "The pass's now (default: the clock); makes a pass reproducible.")
  String now;

  @Option(names = "--window-hours", paramLabel = "H", defaultValue = "24",
      description = "The window before now, in hours (default: ${DEFAULT-VALUE}).")
  double windowHours;

  @Option(names = "--limit", paramLabel = "N", defaultValue = "500",
      description = "Use at most the newest N events of the window (default: ${DEFAULT-VALUE}).")
  int limit;

  @Option(names = "--half-life-hours", paramLabel = "H", defaultValue = "12",
      description = "Half-life of the EmoBank's decay, in hours (default: ${DEFAULT-VALUE}).")
  double halfLifeHours;

  @Option(names = "--assume-zone", paramLabel = "ZONE", defaultValue = "UTC",
      description = "Zone of timestamps without an offset (default: ${DEFAULT-VALUE}).")
  String assumeZone;

  @Option(names = "--rules", paramLabel = "FILE",
      description = "Appraisal rules and RBT thresholds (JSON) replacing the built-in ones.")
  Path rules;

  @Option(names = "--retention-hours", paramLabel = "H", defaultValue = "168",
      description = "EmoBank rows older than H hours before now are compacted into per-episode totals "
          + "(default: ${DEFAULT-VALUE}).")
  double retentionHours;

  @Option(names = "--detectors", paramLabel = "all|none|NAME,...", defaultValue = "all",
      description = "Soft-failure detectors to run: all, none, or names among premature_success, latency, "
          + "timestamp_inconsistent, tool_call_explosion, failure_plateau (default: ${DEFAULT-VALUE}). Tune them "
          + "in the rules file's \"detectors\" object.")
  String detectors;

  @Option(names = "--llm",
      description = "Let the configured LLM drive the stages through its tools (VIGIL_LLM_BASE_URL, VIGIL_LLM_MODEL, "
          + "VIGIL_LLM_API_KEY); the deterministic path finishes whatever it leaves.")
  boolean llm;

  @Option(names = "--llm-max-calls", paramLabel = "N", defaultValue = "12",
      description = "With --llm: the budget of tool calls (default: ${DEFAULT-VALUE}).")
  int llmMaxCalls;

  @Option(names = "--llm-timeout-seconds", paramLabel = "S", defaultValue = "120",
      description = "With --llm: the wall-clock budget of the LLM's session (default: ${DEFAULT-VALUE}).")
  double llmTimeoutSeconds;

  final Clock clock;
  final Stages stages;
  private final Map<String, String> env;

  RunCommand() {
    this(Clock.systemUTC());
  }

  RunCommand(Clock clock) {
    this(clock, new Stages(), System.getenv());
  }

  /**
   * @param stages the work of each stage: tests swap one for a failing one
   * @param env    the environment the LLM's configuration is read from
   */
  RunCommand(Clock clock, Stages stages, Map<String, String> env) {
    this.clock = clock;
    this.stages = stages;
    this.env = env;
  }

  @Override
  public Integer call() throws IOException {
    PassOptions options = options();
    PassDriver driver = llm ? new LlmDriver(llmConfig()) : PassDriver.DETERMINISTIC;
    PassInput input = readInput(options);
    FleetLayout layout = FleetLayout.of(options.emobank(), options.out(), input.agents());
    if (layout.fleet()) {
      return runFleet(options, input, layout, driver);
    }
    PassResult result;
    try {
      result = new ReflectivePass(InputStream.nullInputStream(), clock, stages).run(options, driver, input);
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    }
    Artifacts.write(result, out, clock);
    out().print(ReportMarkdown.summary(result));
    out().println("artifacts: " + out.resolve(Artifacts.REPORT_JSON) + ", " + out.resolve(Artifacts.REPORT_MD));
    out().flush();
    if (result.prompt() != null && result.prompt().isRefused()) {
      err().println("vigil: " + result.prompt().summary());
    }
    for (InternalThorn t : result.internalThorns()) {
      err().println("vigil: internal thorn " + t.type() + " at stage " + t.stage() + ": " + t.message());
      err().println("vigil:   " + t.suggestion());
    }
    err().flush();
    return result.degraded() ? EXIT_DEGRADED : EXIT_OK;
  }

  /** Reads the input once, per agent: the agents it holds decide the layout, and each agent's pass takes its share. */
  private PassInput readInput(PassOptions options) throws IOException {
    try {
      return PassInput.read(options, System.in, true);
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    }
  }

  /**
   * One pass per agent, each with its own bank and reports under {@code agents/<agent>/}, then the fleet summary in
   * {@code --out} (issue 9).
   */
  private Integer runFleet(PassOptions options, PassInput input, FleetLayout layout, PassDriver driver)
      throws IOException {
    boolean degraded = false;
    for (String agent : input.agents()) {
      PassOptions o = options.forAgent(agent, layout.bank(agent), layout.out(agent));
      PassResult result;
      try {
        result = new ReflectivePass(InputStream.nullInputStream(), clock, stages).run(o, driver, input);
      } catch (IllegalArgumentException e) {
        throw new BadInputException(e.getMessage(), e);
      }
      Artifacts.write(result, o.out(), clock);
      FleetSummary.recordPass(o.out(), agent, o.now(), null);
      out().println("== agent " + agent + " (" + o.out() + ")");
      out().print(ReportMarkdown.summary(result));
      if (result.prompt() != null && result.prompt().isRefused()) {
        err().println("vigil: agent " + agent + ": " + result.prompt().summary());
      }
      for (InternalThorn t : result.internalThorns()) {
        err().println("vigil: agent " + agent + ": internal thorn " + t.type() + " at stage " + t.stage() + ": "
            + t.message());
        err().println("vigil:   " + t.suggestion());
      }
      degraded |= result.degraded();
    }
    var summary = FleetSummary.write(out, options.now(), null);
    out().println("fleet summary: " + out.resolve(Artifacts.REPORT_JSON) + " (" + summary.get("agent_count").asInt()
        + " agents)");
    out().flush();
    err().flush();
    return degraded ? EXIT_DEGRADED : EXIT_OK;
  }

  PassOptions options() {
    Instant nowInstant = now == null ? clock.instant() : parseNow();
    if (windowHours <= 0) {
      throw new BadInputException("--window-hours must be positive, not " + windowHours);
    }
    if (halfLifeHours <= 0) {
      throw new BadInputException("--half-life-hours must be positive, not " + halfLifeHours);
    }
    if (retentionHours <= 0) {
      throw new BadInputException("--retention-hours must be positive, not " + retentionHours);
    }
    if (limit <= 0) {
      throw new BadInputException("--limit must be positive, not " + limit);
    }
    ZoneId zone;
    try {
      zone = ZoneId.of(assumeZone);
    } catch (DateTimeException e) {
      throw new BadInputException("--assume-zone \"" + assumeZone + "\" is not a time zone (e.g. UTC, Europe/Paris)");
    }
    Rules loaded;
    Detectors selected;
    try {
      loaded = rules == null ? Rules.defaults() : Rules.load(rules);
      selected = Detectors.select(detectors, loaded.detectors());
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    }
    return new PassOptions(input.events, input.queue, emobank, prompt, repo, out, nowInstant,
        hours(windowHours), limit, hours(halfLifeHours), zone, loaded, hours(retentionHours), selected,
        new CodeProposals.Settings(classpath(), "git", Duration.ofSeconds(30)));
  }

  LlmConfig llmConfig() {
    try {
      return LlmConfig.from(env, System.getProperties(), llmMaxCalls,
          Duration.ofMillis(Math.round(llmTimeoutSeconds * 1000)));
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    }
  }

  private List<Path> classpath() {
    List<Path> out = new ArrayList<>();
    if (repoClasspath == null || repoClasspath.isBlank()) {
      return out;
    }
    for (String entry : repoClasspath.split(File.pathSeparator)) {
      if (entry.isBlank()) {
        continue;
      }
      if (entry.endsWith("*")) {
        Path dir = Path.of(entry.substring(0, entry.length() - 1));
        if (!Files.isDirectory(dir)) {
          throw new BadInputException("--repo-classpath: " + dir + " is not a directory");
        }
        try (var jars = Files.list(dir)) {
          jars.filter(p -> p.toString().endsWith(".jar")).sorted().forEach(out::add);
        } catch (IOException e) {
          throw new BadInputException("--repo-classpath: " + dir + " cannot be listed: " + e.getMessage());
        }
      } else {
        Path p = Path.of(entry);
        if (!Files.exists(p)) {
          throw new BadInputException("--repo-classpath: " + p + " does not exist");
        }
        out.add(p);
      }
    }
    return out;
  }

  private Instant parseNow() {
    try {
      return Timestamps.parse(now, ZoneOffset.UTC).instant();
    } catch (DateTimeException e) {
      throw new BadInputException("--now \"" + now + "\" is not an ISO-8601 timestamp");
    }
  }

  private static Duration hours(double h) {
    return Duration.ofNanos(Math.round(h * 3_600_000_000_000d));
  }
}
