package dev.vigil.cli;

import dev.vigil.emobank.BankCorruptException;
import dev.vigil.ingest.QueueSource;
import dev.vigil.orchestrate.PassDriver;
import dev.vigil.orchestrate.PassOptions;
import dev.vigil.orchestrate.ReflectivePass;
import dev.vigil.orchestrate.llm.LlmDriver;
import dev.vigil.watch.Durations;
import dev.vigil.watch.ThornRate;
import dev.vigil.watch.Watcher;
import java.io.IOException;
import java.io.InputStream;
import java.time.Clock;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code watch}: stays up beside the agent, tails its queue, deposits events as they arrive and runs a pass when a
 * trigger fires (SPEC section 4, issue 9). Takes {@code run}'s options, except {@code --events} and {@code --now}.
 */
@Command(
    name = "watch",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
        "Stays up beside the agent: tails --queue, deposits each event into the",
        "EmoBank as it arrives (exactly once, across restarts), and runs a reflective",
        "pass when a trigger fires; triggers combine, never two passes at once.",
        "Each pass is written like run's into --out and kept under --out/passes/<ts>/.",
        "Several agents in one queue: a bank and reports per agent under",
        "agents/<agent>/, and --out/report.json is the fleet summary.",
        "SIGTERM or SIGINT: finishes the pass in flight, keeps the read position,",
        "exits 0. --events and --now do not apply."})
final class WatchCommand extends RunCommand {
  @Option(names = "--every", paramLabel = "DURATION", converter = DurationOption.class,
      description = "A pass on a timer: 30s, 10m, 1h (units ms, s, m, h, d).")
  Duration every;

  @Option(names = "--after-events", paramLabel = "N",
      description = "A pass after every N new events (per agent).")
  Integer afterEvents;

  @Option(names = "--on-thorns", paramLabel = "K/DURATION", converter = ThornRateOption.class,
      description = "A pass as soon as K thorn-grade appraisals (frustration or anxiety at the RBT thorn threshold) "
          + "arrive within DURATION of event time, e.g. 3/1m.")
  ThornRate onThorns;

  WatchCommand() {
    super();
  }

  WatchCommand(Clock clock) {
    super(clock);
  }

  @Override
  public Integer call() throws IOException {
    if (input.events != null) {
      throw new BadInputException("watch tails a queue: give --queue DIR (--events " + input.events
          + " is for run, over a finished file)");
    }
    if (now != null) {
      throw new BadInputException("--now does not apply to watch: each pass's now is the clock");
    }
    if (afterEvents != null && afterEvents <= 0) {
      throw new BadInputException("--after-events must be a positive number of events, not " + afterEvents);
    }
    PassOptions template = options();
    try {
      new QueueSource(input.queue);
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    }
    PassDriver driver = llm ? new LlmDriver(llmConfig()) : PassDriver.DETERMINISTIC;
    Watcher watcher = new Watcher(
        new Watcher.Settings(template, every, afterEvents == null ? 0 : afterEvents, onThorns),
        o -> new ReflectivePass(InputStream.nullInputStream(), clock, stages).run(o, driver), clock, out(), err());
    try (StopSignals signals = StopSignals.install(watcher::stop)) {
      watcher.run();
    } catch (IllegalArgumentException e) {
      throw new BadInputException(e.getMessage(), e);
    } catch (BankCorruptException e) {
      throw new BadInputException("EmoBank " + e.getMessage(), e);
    }
    return EXIT_OK;
  }

  /** Converts {@code --every}; a bad value is a usage error naming the option. */
  static final class DurationOption implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      try {
        return Durations.parse(value, "--every");
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }

  /** Converts {@code --on-thorns}; a bad value is a usage error naming the option. */
  static final class ThornRateOption implements ITypeConverter<ThornRate> {
    @Override
    public ThornRate convert(String value) {
      try {
        return ThornRate.parse(value, "--on-thorns");
      } catch (IllegalArgumentException e) {
        throw new TypeConversionException(e.getMessage());
      }
    }
  }
}
