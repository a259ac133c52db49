package dev.vigil.api;

import dev.vigil.fleet.FleetLayout;
import dev.vigil.fleet.FleetSummary;
import dev.vigil.ingest.IngestStats;
import dev.vigil.ingest.otlp.OtlpFile;
import dev.vigil.orchestrate.PassDriver;
import dev.vigil.orchestrate.PassInput;
import dev.vigil.orchestrate.PassOptions;
import dev.vigil.orchestrate.PassResult;
import dev.vigil.orchestrate.ReflectivePass;
import dev.vigil.orchestrate.Stages;
import dev.vigil.report.Artifacts;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Vigil's analyzer as a library (docs/LIBRARY.md): a reflective pass over a window of events, with
 * the options of {@code run}. {@code run}, {@code watch} and the LLM's tools all go through it.
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
 * <p>An input holding several agents is analyzed as a fleet: each agent gets its own bank and
 * reports under {@code agents/<agent>/}, and {@code out/report.json} is the fleet summary. Bad
 * options and a missing or unreadable input throw {@link IllegalArgumentException} naming them;
 * nothing is written then.
 */
public final class Analyzer {
  private final PassOptions options;
  private final Stages stages;
  private final PassDriver driver;
  private final Clock clock;
  private final InputStream stdin;
  private final boolean writeArtifacts;
  private final Path otlp;

  /** The events an OTLP input maps to, in the output directory (docs/OPENTELEMETRY.md). */
  public static final String OTLP_EVENTS = "otlp-events.jsonl";

  Analyzer(
      PassOptions options,
      Stages stages,
      PassDriver driver,
      Clock clock,
      InputStream stdin,
      boolean writeArtifacts,
      Path otlp) {
    this.options = options;
    this.stages = stages;
    this.driver = driver;
    this.clock = clock;
    this.stdin = stdin;
    this.writeArtifacts = writeArtifacts;
    this.otlp = otlp;
  }

  /** A builder with {@code run}'s defaults. */
  public static AnalyzerBuilder builder() {
    return new AnalyzerBuilder();
  }

  /** The options every pass of this analyzer starts from. */
  public PassOptions options() {
    return options;
  }

  /**
   * Runs the pass: reads the input once, then one pass (or one per agent of a fleet), each writing
   * its artifacts when asked (the default).
   *
   * @throws IllegalArgumentException naming the input when it is missing or unreadable
   */
  public Analysis run() throws IOException {
    IngestStats carried = new IngestStats();
    if (otlp != null) {
      carried = OtlpFile.toJsonl(otlp, Path.of(options.events())).skipped();
    }
    PassInput input = PassInput.read(options, stdin, true, carried);
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
    return new Analysis(
        passes,
        true,
        writeArtifacts ? FleetSummary.write(options.out(), options.now(), null) : null);
  }

  /**
   * Runs one pass over {@code o}, which names its own input, agent, bank and output ({@code
   * watch}'s passes start from {@link #options()}); writes its artifacts when asked.
   */
  public PassResult run(PassOptions o) throws IOException {
    return pass(o, PassInput.read(o, stdin, false, new IngestStats()));
  }

  private PassResult pass(PassOptions o, PassInput input) throws IOException {
    PassResult result =
        new ReflectivePass(clock, stages).run(o, driver, input, Artifacts.passNumber(o.out()));
    if (writeArtifacts) {
      Artifacts.write(result, o.out(), clock);
    }
    return result;
  }
}
