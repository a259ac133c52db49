package dev.vigil.cli;

import dev.vigil.orchestrate.Rules;
import dev.vigil.report.Artifacts;
import java.util.Arrays;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The fixed work of a pass that does not depend on its options, begun on a second thread while the main thread
 * builds the command line and reads the events: the built-in rules (the first use of Jackson's databind, about a
 * fifth of a small run) and the compiled report template (Pebble). What it prepares is exactly what the pass would
 * build itself; a failure here is left for the pass to meet and report.
 */
final class StartAhead {
  private static final AtomicReference<FutureTask<Rules>> DEFAULT_RULES = new AtomicReference<>();

  private StartAhead() {}

  /** Begins the work the command named by {@code args[0]} will need: only {@code run}, {@code watch}, {@code eval}. */
  static void begin(String... args) {
    String command = args.length > 0 ? args[0] : "";
    boolean pass = command.equals("run") || command.equals("watch");
    if (!pass && !command.equals("eval")) {
      return;
    }
    boolean ownRules = Arrays.stream(args).anyMatch(a -> a.equals("--rules") || a.startsWith("--rules="));
    FutureTask<Rules> rules = new FutureTask<>(Rules::defaults);
    if (!ownRules) {
      DEFAULT_RULES.set(rules);
    }
    Thread t = new Thread(() -> {
      if (!ownRules) {
        rules.run();
      }
      if (pass) {
        try {
          Artifacts.prepareHtml();
        } catch (RuntimeException e) {
          // the pass renders the template itself and reports what is wrong
        }
      }
    }, "vigil-start-ahead");
    t.setDaemon(true);
    t.start();
  }

  /** The built-in rules: those begun ahead if there are any left, else parsed now. */
  static Rules defaultRules() {
    FutureTask<Rules> ahead = DEFAULT_RULES.getAndSet(null);
    if (ahead == null) {
      return Rules.defaults();
    }
    try {
      return ahead.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Rules.defaults();
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(e.getCause());
    }
  }
}
