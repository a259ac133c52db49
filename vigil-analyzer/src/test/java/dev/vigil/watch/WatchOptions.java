package dev.vigil.watch;

import dev.vigil.adapt.code.CodeProposals;
import dev.vigil.diagnose.detect.Detectors;
import dev.vigil.orchestrate.PassOptions;
import dev.vigil.orchestrate.Rules;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;

/** The pass options the watch tests start from: {@code run}'s defaults over a queue. */
final class WatchOptions {
  private WatchOptions() {}

  /** Over {@code queue}, with the bank and the output under {@code tmp}, at {@code now}. */
  static PassOptions of(Path queue, Path tmp, Instant now) {
    return of(queue, tmp, now, Rules.defaults());
  }

  /** The same with {@code rules}. */
  static PassOptions of(Path queue, Path tmp, Instant now, Rules rules) {
    return new PassOptions(
        null,
        queue,
        tmp.resolve("bank"),
        null,
        null,
        tmp.resolve("out"),
        now,
        Duration.ofHours(24),
        500,
        Duration.ofHours(12),
        ZoneOffset.UTC,
        rules,
        Duration.ofHours(168),
        Detectors.select("all", rules.detectors()),
        new CodeProposals.Settings(List.of(), "git", Duration.ofSeconds(30)));
  }
}
