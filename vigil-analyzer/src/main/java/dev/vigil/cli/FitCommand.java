package dev.vigil.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.vigil.diagnose.detect.Detectors;
import dev.vigil.eval.Fitting;
import dev.vigil.ingest.QueueSource;
import dev.vigil.io.Notice;
import dev.vigil.io.OwnerOnly;
import dev.vigil.orchestrate.Rules;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.ZoneId;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code fit}: learns a calibrated, explainable model of session failure from the user's labelled
 * sessions.
 */
@Command(
    name = "fit",
    header = "Fits a model of session failure to labelled sessions.",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Fits a model of session failure to labelled sessions (docs/MODEL.md).",
      "Each labelled session of --events (or --queue, or --otlp) is read as",
      "the detectors read it; its words, tool calls, findings and counts",
      "become features of an",
      "L2-regularized logistic regression. Group-disjoint cross-validation",
      "measures it on sessions it never saw. Writes --out/model.json (use it",
      "with --model in run, watch and eval) and --out/fit.json (cv_auroc and",
      "its interval, precision and recall per level, calibration, the",
      "strongest features). Exit 0 success, 2 bad usage or input."
    })
final class FitCommand extends VigilCommand {
  /** Where the events come from: exactly one. */
  static final class Input {
    @Option(
        names = "--events",
        paramLabel = "FILE",
        description = "The events, JSONL: one event per line, as export writes them.")
    Path events;

    @Option(
        names = "--queue",
        paramLabel = "DIR",
        description =
            "A Chronicle queue written by the Vigil agent, read whole (as export reads it).")
    Path queue;

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
      description =
          "The labels: JSON lines {\"session\": \"...\", \"failed\": true|false, \"group\": \"...\"}; the "
              + "group (task, customer, scenario) is optional, and cross-validation never splits one.")
  Path labels;

  @Option(
      names = "--rules",
      paramLabel = "FILE",
      description =
          "A rules file: its tool roles, detectors, policy rules and model.features shape the features.")
  Path rulesFile;

  @Option(
      names = "--folds",
      paramLabel = "K",
      defaultValue = "5",
      description = "Folds of the cross-validation (default: ${DEFAULT-VALUE}).")
  int folds;

  @Option(
      names = "--seed",
      paramLabel = "N",
      defaultValue = "20261126",
      description =
          "Seed of the folds and of the interval's bootstrap (default: ${DEFAULT-VALUE}).")
  long seed;

  @Option(
      names = "--assume-zone",
      paramLabel = "ZONE",
      defaultValue = "UTC",
      description = "Zone of timestamps without an offset (default: ${DEFAULT-VALUE}).")
  String assumeZone;

  @Option(
      names = "--out",
      paramLabel = "DIR",
      defaultValue = "output",
      description = "Where model.json and fit.json go (default: ${DEFAULT-VALUE}).")
  Path out;

  private final Clock clock;

  FitCommand() {
    this(Clock.systemUTC());
  }

  FitCommand(Clock clock) {
    this.clock = clock;
  }

  @Override
  public Integer call() throws IOException {
    if (input.events != null) {
      return fit(input.events);
    }
    if (input.otlp != null) {
      return fit(OtlpInput.events(input.otlp, out, "fit", clock, err()));
    }
    QueueSource source;
    try {
      source = new QueueSource(input.queue, "fit");
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    }
    Path events = Files.createTempFile("vigil-fit", ".jsonl");
    try {
      try (Writer w = Files.newBufferedWriter(events, StandardCharsets.UTF_8)) {
        ExportCommand.export(source, null, w);
      }
      return fit(events);
    } finally {
      Files.deleteIfExists(events);
    }
  }

  private int fit(Path events) throws IOException {
    Fitting.Result result;
    try {
      ZoneId zone = ZoneId.of(assumeZone);
      Rules rules = rulesFile == null ? StartAhead.defaultRules() : Rules.load(rulesFile);
      Detectors detectors =
          Detectors.select("all", rules.detectors(), rules.policies().detectors());
      String version = Main.class.getPackage().getImplementationVersion();
      result =
          new Fitting(
                  events,
                  labels,
                  rules,
                  detectors,
                  folds,
                  seed,
                  zone,
                  line -> {
                    err().println(Notice.line(clock.instant(), "fit", Notice.Level.INFO, line));
                    err().flush();
                  },
                  clock,
                  version == null ? "dev" : version)
              .run();
    } catch (DateTimeException e) {
      throw new BadInputException(
          "--assume-zone \"" + assumeZone + "\" is not a time zone (e.g. UTC, Europe/Paris)");
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    }
    OwnerOnly.createDirectories(out);
    result.model().write(out.resolve("model.json"));
    Files.writeString(
        out.resolve("fit.json"),
        new ObjectMapper().writerWithDefaultPrettyPrinter().writeValueAsString(result.report())
            + "\n");
    out().print(result.text());
    out().println("written: " + out.resolve("model.json") + ", " + out.resolve("fit.json"));
    out().flush();
    return EXIT_OK;
  }
}
