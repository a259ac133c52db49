package dev.vigil.eval;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.vigil.diagnose.detect.Detectors;
import dev.vigil.learn.SessionModel;
import dev.vigil.orchestrate.Rules;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The corpus figures docs/EVAL.md states are those {@code samples/corpus/measure.sh} prints:
 * measured on the measuring part of the split, the model fitted on the tuning part. They cannot
 * drift from what the command gives.
 */
class CorpusFiguresTest {
  private static final Path CORPUS = Path.of("..", "samples", "corpus");
  private static final Path DOC = Path.of("..", "docs", "EVAL.md");

  @TempDir Path tmp;

  @Test
  void theDocumentedCorpusFiguresAreWhatTheCommandPrints() throws Exception {
    Rules rules = Rules.load(CORPUS.resolve("rules.json"));
    Path events = CORPUS.resolve("events.jsonl");
    EvalReport byRules =
        Evaluation.builder()
            .events(events)
            .labels(CORPUS.resolve("labels-measure.jsonl"))
            .analyzer(b -> b.rules(rules))
            .build()
            .run();
    Fitting.Result fit =
        new Fitting(
                events,
                CORPUS.resolve("labels-tune.jsonl"),
                rules,
                Detectors.select("all", rules.detectors(), rules.policies().detectors()),
                5,
                20261126L,
                ZoneOffset.UTC,
                line -> {},
                Clock.systemUTC(),
                "dev")
            .run();
    Path model = tmp.resolve("model.json");
    fit.model().write(model);
    SessionModel read =
        SessionModel.read(
            model,
            rules.features(),
            java.util.Set.copyOf(
                Detectors.select("all", rules.detectors(), rules.policies().detectors())
                    .selectedNames()));
    EvalReport byModel =
        Evaluation.builder()
            .events(events)
            .labels(CORPUS.resolve("labels-measure.jsonl"))
            .analyzer(b -> b.rules(rules.withModel(read)))
            .model(read)
            .build()
            .run();

    String doc = Files.readString(DOC);
    String rulesLine = firstLine(byRules.text(), 1);
    String fitLine = firstLine(fit.text(), 1);
    String modelLine = firstLine(byModel.text(), 1);
    for (String line : new String[] {rulesLine, fitLine, modelLine}) {
      assertTrue(doc.contains(line), "docs/EVAL.md must quote, as measure.sh prints it: " + line);
    }
    assertTrue(byModel.inSample() == 0, "no session of the measuring part trained the model");
    assertTrue(
        doc.contains(
            String.format(
                Locale.ROOT, "%d sessions (%d failed)", byRules.sessions(), byRules.failed())),
        "the measuring part's size");
  }

  private static String firstLine(String text, int index) {
    return text.lines().skip(index).findFirst().orElseThrow();
  }
}
