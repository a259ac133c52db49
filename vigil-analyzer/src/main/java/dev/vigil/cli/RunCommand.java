package dev.vigil.cli;

import dev.vigil.api.Analysis;
import dev.vigil.api.Analyzer;
import dev.vigil.api.AnalyzerBuilder;
import dev.vigil.observe.Timestamps;
import dev.vigil.orchestrate.PassResult;
import dev.vigil.orchestrate.Stages;
import dev.vigil.report.Artifacts;
import dev.vigil.report.PassProblems;
import dev.vigil.report.ReportMarkdown;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.ZoneOffset;
import java.util.Map;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code run}: one reflective pass over a window of events; writes the artifacts and prints a short
 * summary.
 */
@Command(
    name = "run",
    header = "One reflective pass over the window, written into --out.",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "One reflective pass: ingest the window, appraise, deposit into the EmoBank exactly once, diagnose",
      "Roses/Buds/Thorns, write report.json, report.md and audit.jsonl into --out, print a summary.",
      "Exit 0 success, 1 degraded, 2 bad usage or input."
    })
final class RunCommand extends VigilCommand {
  /** Where the events come from: exactly one. */
  static final class Input {
    @Option(
        names = "--queue",
        paramLabel = "DIR",
        description = "A Chronicle queue written by the Vigil agent.")
    Path queue;

    @Option(
        names = "--events",
        paramLabel = "FILE",
        description =
            "A JSONL file of events (docs/DESIGN.md#the-event, the paper's format); - reads stdin.")
    String events;

    @Option(
        names = "--otlp",
        paramLabel = "FILE",
        description =
            "OpenTelemetry traces: OTLP JSON, one export request per line, as the collector's file"
                + " exporter writes it (docs/OPENTELEMETRY.md).")
    Path otlp;
  }

  @ArgGroup(exclusive = true, multiplicity = "1")
  Input input;

  @Option(
      names = "--now",
      paramLabel = "ISO",
      description = "The pass's now (default: the clock); makes a pass reproducible.")
  String now;

  @Mixin PassOptionsMixin pass;

  private final Clock clock;
  private final Stages stages;
  private final Map<String, String> env;

  RunCommand() {
    this(Clock.systemUTC());
  }

  RunCommand(Clock clock) {
    this(clock, Stages.defaults(), System.getenv());
  }

  /**
   * @param stages the work of each stage: tests swap one for a failing one
   * @param env the environment the LLM's configuration is read from
   */
  RunCommand(Clock clock, Stages stages, Map<String, String> env) {
    this.clock = clock;
    this.stages = stages;
    this.env = env;
  }

  @Override
  public Integer call() throws IOException {
    AnalyzerBuilder b = Analyzer.builder().clock(clock).stages(stages).stdin(System.in);
    if (now != null) {
      b.now(parseNow());
    }
    if (input.events != null) {
      b.events(input.events);
    } else if (input.otlp != null) {
      b.otlp(input.otlp);
    } else {
      b.queue(input.queue);
    }
    Analysis analysis;
    try {
      analysis = pass.applyTo(b, env).build().run();
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    }
    if (!analysis.fleet()) {
      PassResult result = analysis.result();
      out().print(ReportMarkdown.summary(result));
      out()
          .println(
              "artifacts: "
                  + pass.out.resolve(Artifacts.REPORT_JSON)
                  + ", "
                  + pass.out.resolve(Artifacts.REPORT_MD)
                  + ", "
                  + pass.out.resolve(Artifacts.REPORT_HTML));
      PassProblems.print(result, clock.instant(), "run", "", err());
    } else {
      for (Analysis.AgentPass p : analysis.passes()) {
        out().println("== agent " + p.agent() + " (" + p.result().options().out() + ")");
        out().print(ReportMarkdown.summary(p.result()));
        PassProblems.print(p.result(), clock.instant(), "run", "agent " + p.agent() + ": ", err());
      }
      out()
          .println(
              "fleet summary: "
                  + pass.out.resolve(Artifacts.REPORT_JSON)
                  + " ("
                  + analysis.fleetSummary().get("agent_count").asInt()
                  + " agents)");
    }
    out().flush();
    err().flush();
    return analysis.degraded() ? EXIT_DEGRADED : EXIT_OK;
  }

  private java.time.Instant parseNow() {
    try {
      return Timestamps.parse(now, ZoneOffset.UTC).instant();
    } catch (DateTimeException e) {
      throw new BadInputException("--now \"" + now + "\" is not an ISO-8601 timestamp");
    }
  }
}
