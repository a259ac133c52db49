package dev.vigil.cli;

import dev.vigil.api.AnalyzerBuilder;
import dev.vigil.diagnose.detect.Detectors;
import dev.vigil.learn.SessionModel;
import dev.vigil.orchestrate.Rules;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.Set;
import picocli.CommandLine.Option;

/**
 * The options that shape a diagnosis, shared by {@code run}, {@code watch} and {@code eval} (as
 * jbang's mixins are): the rules file, the detectors, the decay's half-life, the zone of naive
 * timestamps and the model. The rules file and the model are read once, however many passes use
 * them.
 */
final class DiagnosisOptionsMixin {
  @Option(
      names = "--rules",
      paramLabel = "FILE",
      description =
          "A rules file (JSON) with any of the sections clamp, appraisal, rbt, tool_roles, detectors, alarm "
              + "and policies (CEL preconditions on tool calls, docs/POLICIES.md); a section left out keeps the built-in "
              + "one.")
  Path rulesFile;

  @Option(
      names = "--detectors",
      paramLabel = "all|none|NAME,...",
      defaultValue = "all",
      description =
          "Detectors to run: all, none, or names among premature_success, latency, timestamp_inconsistent, "
              + "tool_call_explosion, failure_plateau, unconfirmed_write, claim_without_action, user_correction, "
              + "write_after_refusal and policy.NAME for each policy rule (default: ${DEFAULT-VALUE}). Tune them in the "
              + "rules file's \"detectors\" object.")
  String detectors;

  @Option(
      names = "--half-life-hours",
      paramLabel = "H",
      defaultValue = "12",
      description = "Half-life of the EmoBank's decay, in hours (default: ${DEFAULT-VALUE}).")
  double halfLifeHours;

  @Option(
      names = "--assume-zone",
      paramLabel = "ZONE",
      defaultValue = "UTC",
      description = "Zone of timestamps without an offset (default: ${DEFAULT-VALUE}).")
  String assumeZone;

  @Option(
      names = "--model",
      paramLabel = "FILE",
      description =
          "A model.json written by fit: every session in the window is scored, and the alarm becomes the "
              + "worst session's calibrated probability of failure, with the features that moved it (docs/MODEL.md).")
  Path modelFile;

  private Rules rules;

  /** These options on a builder; a bad value is a {@link BadInputException} naming the option. */
  AnalyzerBuilder applyTo(AnalyzerBuilder b) {
    return b.rules(rules()).detectors(detectors).halfLife(halfLife()).assumeZone(zone());
  }

  /** The half-life; {@link BadInputException} unless positive. */
  Duration halfLife() {
    if (halfLifeHours <= 0) {
      throw new BadInputException("--half-life-hours must be positive, not " + halfLifeHours);
    }
    return Duration.ofNanos(Math.round(halfLifeHours * 3_600_000_000_000d));
  }

  /** The zone of naive timestamps; {@link BadInputException} naming a zone that is none. */
  ZoneId zone() {
    try {
      return ZoneId.of(assumeZone);
    } catch (DateTimeException e) {
      throw new BadInputException(
          "--assume-zone \"" + assumeZone + "\" is not a time zone (e.g. UTC, Europe/Paris)");
    }
  }

  /** The rules, read on first use; {@link BadInputException} naming the file and what is wrong. */
  Rules rules() {
    if (rules == null) {
      try {
        Rules r = rulesFile == null ? StartAhead.defaultRules() : Rules.load(rulesFile);
        if (modelFile != null) {
          Set<String> findings =
              Set.copyOf(
                  Detectors.select("all", r.detectors(), r.policies().detectors()).selectedNames());
          SessionModel model = StartAhead.model(modelFile);
          model.check(modelFile, r.features(), findings);
          r = r.withModel(model);
        }
        rules = r;
      } catch (IllegalArgumentException e) {
        throw new BadInputException(e.getMessage(), e);
      }
    }
    return rules;
  }
}
