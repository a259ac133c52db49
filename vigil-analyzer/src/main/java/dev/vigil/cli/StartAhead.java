package dev.vigil.cli;

import dev.vigil.learn.SessionModel;
import dev.vigil.orchestrate.Rules;
import dev.vigil.report.Artifacts;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The fixed work of a pass that does not depend on its options, begun on a second thread while the
 * main thread builds the command line and reads the events: the built-in rules (the first use of
 * Jackson's databind, about a fifth of a small run), the compiled report template (Pebble) and the
 * model of {@code --model}. What it prepares is exactly what the pass would build itself; a failure
 * here is left for the pass to meet and report.
 */
final class StartAhead {
  private static final AtomicReference<FutureTask<Rules>> DEFAULT_RULES = new AtomicReference<>();
  private static final AtomicReference<Map.Entry<Path, FutureTask<SessionModel>>> MODEL =
      new AtomicReference<>();

  private StartAhead() {}

  /**
   * Begins the work the command named by {@code args[0]} will need: only {@code run}, {@code
   * watch}, {@code eval}.
   */
  static void begin(String... args) {
    String command = args.length > 0 ? args[0] : "";
    boolean pass = command.equals("run") || command.equals("watch");
    if (!pass && !command.equals("eval")) {
      return;
    }
    boolean ownRules = RawArgs.has(args, "--rules");
    FutureTask<Rules> rules = new FutureTask<>(Rules::defaults);
    if (!ownRules) {
      DEFAULT_RULES.set(rules);
    }
    String modelArg = RawArgs.valueOf(args, "--model");
    Path modelFile = modelArg == null ? null : Path.of(modelArg);
    FutureTask<SessionModel> model =
        modelFile == null ? null : new FutureTask<>(() -> SessionModel.load(modelFile));
    if (model != null) {
      MODEL.set(Map.entry(modelFile, model));
    }
    Thread t =
        new Thread(
            () -> {
              if (!ownRules) {
                rules.run();
              }
              if (model != null) {
                model.run();
              }
              if (pass) {
                try {
                  Artifacts.prepareHtml();
                } catch (RuntimeException e) {
                  // the pass renders the template itself and reports what is wrong
                }
              }
            },
            "vigil-start-ahead");
    t.setDaemon(true);
    t.start();
  }

  /**
   * The model of {@code file} ({@link SessionModel#load}): the one begun ahead when it was of this
   * file, else read now.
   *
   * @throws IllegalArgumentException naming the file and what is wrong
   */
  static SessionModel model(Path file) {
    Map.Entry<Path, FutureTask<SessionModel>> ahead = MODEL.getAndSet(null);
    if (ahead == null || !ahead.getKey().equals(file)) {
      return SessionModel.load(file);
    }
    return result(ahead.getValue(), () -> SessionModel.load(file));
  }

  private static <T> T result(FutureTask<T> task, java.util.function.Supplier<T> again) {
    try {
      return task.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return again.get();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    }
  }

  /** The built-in rules: those begun ahead if there are any left, else parsed now. */
  static Rules defaultRules() {
    FutureTask<Rules> ahead = DEFAULT_RULES.getAndSet(null);
    if (ahead == null) {
      return Rules.defaults();
    }
    return result(ahead, Rules::defaults);
  }
}
