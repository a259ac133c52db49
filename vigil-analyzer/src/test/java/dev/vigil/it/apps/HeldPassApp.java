package dev.vigil.it.apps;

import dev.vigil.api.Analyzer;
import dev.vigil.appraise.Appraisal;
import dev.vigil.appraise.Appraiser;
import dev.vigil.emobank.EmotionRow;
import dev.vigil.orchestrate.BankStage;
import dev.vigil.orchestrate.Rules;
import dev.vigil.orchestrate.Stages;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;

/**
 * A pass held between its deposits and its commit: its bank stage deposits every event of the
 * window (the rows reach the file past the committed length), writes the marker file and waits
 * forever, so that a test can kill the process at exactly that point. Arguments: EVENTS BANK OUT
 * MARKER NOW.
 */
public final class HeldPassApp {
  private HeldPassApp() {}

  public static void main(String[] args) throws Exception {
    Path marker = Path.of(args[3]);
    Appraiser appraiser = Rules.defaults().appraisal().newAppraiser();
    BankStage held =
        (pass, window, bank) -> {
          window
              .events()
              .forEach(
                  w -> {
                    Appraisal a = appraiser.appraise(w.event());
                    try {
                      bank.deposit(
                          w.identity(),
                          EmotionRow.of(
                              w.event().ts(), a.emotion(), a.intensity(), a.valence(), a.cause()));
                    } catch (java.io.IOException e) {
                      throw new java.io.UncheckedIOException(e);
                    }
                  });
          Files.writeString(marker, "deposited " + window.events().size());
          try {
            new CountDownLatch(1)
                .await(); // held before the commit until the test kills the process
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
          }
          throw new IllegalStateException("the held pass was not killed");
        };
    Analyzer.builder()
        .events(Path.of(args[0]))
        .emobank(Path.of(args[1]))
        .out(Path.of(args[2]))
        .now(Instant.parse(args[4]))
        .limit(1_000_000)
        .stages(Stages.defaults().withBank(held))
        .build()
        .run();
  }
}
