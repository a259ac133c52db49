package dev.vigil.cli;

import dev.vigil.api.Analyzer;
import dev.vigil.eval.EvalReport;
import dev.vigil.eval.Evaluation;
import dev.vigil.eval.Score;
import dev.vigil.io.Notice;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneId;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code eval}: how well Vigil's alarm separates failed from good sessions on the user's labelled
 * events.
 */
@Command(
    name = "eval",
    header = "Measures the alarm (or a model) on labelled sessions.",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Measures the diagnosis on labelled sessions. Splits --events (or the",
      "events of --otlp) by session (by agent for events without one), runs",
      "one pass per labelled session (a",
      "fresh EmoBank, now = its last event, no artifacts), then prints and writes",
      "--out/eval.json: the AUROC of the alarm's score for predicting \"failed\",",
      "with a 95%% bootstrap interval, and each detector's and policy rule's",
      "precision and recall; --out/eval_sessions.jsonl: one line per session.",
      "Labels: JSON lines {\"session\": \"...\", \"failed\": true|false}.",
      "Exit 0 success, 2 bad usage or input."
    })
final class EvalCommand extends VigilCommand {
  /** Where the events come from: exactly one. */
  static final class Input {
    @Option(
        names = "--events",
        paramLabel = "FILE",
        description = "The events, JSONL (docs/DESIGN.md#the-event).")
    Path events;

    @Option(
        names = "--otlp",
        paramLabel = "FILE",
        description =
            "OpenTelemetry traces, OTLP JSON with one export request per line; their events are"
                + " written to --out/otlp-events.jsonl (docs/OPENTELEMETRY.md).")
    Path otlp;
  }

  @ArgGroup(exclusive = true, multiplicity = "1")
  Input input;

  @Option(
      names = "--labels",
      required = true,
      paramLabel = "FILE",
      description = "The labels: JSON lines {\"session\": \"...\", \"failed\": true|false}.")
  Path labels;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      defaultValue = "output",
      description = "Where eval.json and eval_sessions.jsonl go (default: ${DEFAULT-VALUE}).")
  Path out;

  @Mixin DiagnosisOptionsMixin diagnosis;

  @Option(
      names = "--reports",
      paramLabel = "DIR",
      description =
          "Also write each session's artifacts (report.json, report.md, report.html) under DIR/<session>/.")
  Path reports;

  @Option(
      names = "--score",
      paramLabel = "alarm|stress",
      defaultValue = "alarm",
      description =
          "What ranks a session: the alarm's score, or the snapshot's stress for comparison (default: "
              + "${DEFAULT-VALUE}).")
  String score;

  @Option(
      names = "--resamples",
      paramLabel = "N",
      defaultValue = "2000",
      description = "Bootstrap resamples of the AUROC's interval (default: ${DEFAULT-VALUE}).")
  int resamples;

  @Option(
      names = "--seed",
      paramLabel = "N",
      defaultValue = "20261122",
      description =
          "Seed of the bootstrap (default: ${DEFAULT-VALUE}); the same seed gives the same interval.")
  long seed;

  @Option(
      names = "--progress-every",
      paramLabel = "N",
      defaultValue = "50",
      description =
          "A progress line on stderr after every N sessions, and at least every 5 s (default: "
              + "${DEFAULT-VALUE}).")
  int progressEvery;

  private final Clock clock;

  EvalCommand() {
    this(Clock.systemUTC());
  }

  EvalCommand(Clock clock) {
    this.clock = clock;
  }

  @Override
  public Integer call() throws IOException {
    if (resamples < 1 || progressEvery < 1) {
      throw new BadInputException(
          (resamples < 1
              ? "--resamples must be at least 1, not " + resamples
              : "--progress-every must be at least 1, not " + progressEvery));
    }
    ZoneId zone = diagnosis.zone();
    diagnosis.applyTo(Analyzer.builder()); // a bad value exits 2 before any pass
    Path events =
        input.otlp != null ? OtlpInput.events(input.otlp, out, "eval", clock, err()) : input.events;
    EvalReport report;
    try {
      report =
          Evaluation.builder()
              .events(events)
              .labels(labels)
              .assumeZone(zone)
              .analyzer(diagnosis::applyTo)
              .score(Score.named(score))
              .bootstrap(resamples, seed)
              .progress(
                  line -> {
                    err().println(Notice.line(clock.instant(), "eval", Notice.Level.INFO, line));
                    err().flush();
                  },
                  progressEvery,
                  Duration.ofSeconds(5))
              .reports(reports)
              .model(diagnosis.rules().model())
              .clock(clock)
              .build()
              .run();
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    }
    report.write(out);
    out().print(report.text());
    out()
        .println(
            "written: "
                + out.resolve(EvalReport.EVAL_JSON)
                + ", "
                + out.resolve(EvalReport.SESSIONS_JSONL));
    out().flush();
    return EXIT_OK;
  }
}
