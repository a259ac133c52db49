package dev.vigil.cli;

import dev.vigil.io.Notice;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * Entry point of {@code vigil-analyzer.jar}. {@link #run} takes its output streams as arguments so
 * that tests run the CLI in-process; {@link #main} wires it to the process's streams and exit code.
 */
@Command(
    name = "vigil-analyzer",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description =
        "Vigil's analyzer: reads the events the Vigil javaagent recorded and reflects on them.")
public final class Main implements Runnable {
  static {
    // Before any Chronicle class loads: Chronicle must never open a socket for usage analytics.
    if (System.getProperty("chronicle.analytics.disable") == null) {
      System.setProperty("chronicle.analytics.disable", "true");
    }
    // SLF4J's provider is chosen here, on one thread, before Chronicle's, Micrometer's or the
    // OpenTelemetry SDK's threads log: a call from another thread during that choice would be
    // "replayed" with three warning lines on stderr
    org.slf4j.LoggerFactory.getILoggerFactory();
  }

  /**
   * Bad input exits 2 with one line; anything else is an internal error, exit 1, with its stack
   * trace.
   */
  static final CommandLine.IExecutionExceptionHandler EXCEPTIONS =
      (e, commandLine, parseResult) -> {
        String name = commandLine.getCommandName();
        if (e instanceof BadInputException) {
          commandLine
              .getErr()
              .println(Notice.line(Instant.now(), name, Notice.Level.ERROR, e.getMessage()));
          return VigilCommand.EXIT_USAGE;
        }
        commandLine
            .getErr()
            .println(Notice.line(Instant.now(), name, Notice.Level.ERROR, "internal error: " + e));
        e.printStackTrace(commandLine.getErr());
        return VigilCommand.EXIT_DEGRADED;
      };

  /**
   * The commands, in the order the usage lists them. Picocli builds a command's model (its options,
   * mixins, the types they load) when it is added, so an invocation that names one command gets
   * only that one (see {@link #commands}).
   */
  static final Map<String, Class<?>> COMMANDS = commandTable();

  @Spec CommandSpec spec;

  private static Map<String, Class<?>> commandTable() {
    Map<String, Class<?>> m = new LinkedHashMap<>();
    m.put("run", RunCommand.class);
    m.put("export", ExportCommand.class);
    m.put("watch", WatchCommand.class);
    m.put("rollback", RollbackCommand.class);
    m.put("eval", EvalCommand.class);
    m.put("fit", FitCommand.class);
    m.put("ship", ShipCommand.class);
    return m;
  }

  /**
   * The commands an invocation needs: the one its first argument names, or every one (usage,
   * --help, --version, a mistyped name that picocli answers with suggestions).
   */
  static Collection<Class<?>> commands(String... args) {
    Class<?> named = args.length > 0 ? COMMANDS.get(args[0]) : null;
    return named == null ? COMMANDS.values() : List.of(named);
  }

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getErr());
    throw new CommandLine.ParameterException(spec.commandLine(), "a command is required");
  }

  /** Runs the CLI with the process's streams and exits with the command's exit code. */
  public static void main(String[] args) {
    FirstCompiler.begin(args); // this process only: tests run the CLI in their own JVM
    int exit;
    try {
      exit = run(System.out, System.err, args);
    } catch (OutOfMemoryError e) {
      // what the pass held is unreachable by now: there is room to say what to do
      System.err.println(outOfMemory(Runtime.getRuntime().maxMemory()));
      exit = VigilCommand.EXIT_DEGRADED;
    }
    System.exit(exit);
  }

  /**
   * The line for a pass that ran out of heap. Nothing stored is lost: a bank's uncommitted rows are
   * recovered when it is next opened.
   */
  static String outOfMemory(long maxHeapBytes) {
    return "vigil-analyzer: out of memory: the Java heap (at most "
        + maxHeapBytes / (1024 * 1024)
        + " MB) cannot "
        + "hold this pass. A pass keeps what its detectors follow per tool, turn and session (up to 10,000 open "
        + "sessions), the EmoBank's live rows (44 bytes each) and 24 bytes an event up to --limit: lower --limit, "
        + "--window-hours or --retention-hours, or give the JVM more heap (java -Xmx2g -jar vigil-analyzer.jar ...). The "
        + "EmoBank is as it was before the pass, or its uncommitted rows are recovered when it is next opened.";
  }

  /**
   * Runs one command.
   *
   * @return the exit code: 0 success, 1 degraded, 2 bad usage or input
   */
  public static int run(PrintStream out, PrintStream err, String... args) {
    PrintWriter outWriter =
        new PrintWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8), true);
    PrintWriter errWriter =
        new PrintWriter(new OutputStreamWriter(err, StandardCharsets.UTF_8), true);
    StartAhead.begin(args);
    CommandLine cli = new CommandLine(new Main());
    for (Class<?> command : commands(args)) {
      cli.addSubcommand(command);
    }
    cli.setOut(outWriter).setErr(errWriter).setExecutionExceptionHandler(EXCEPTIONS);
    try {
      return cli.execute(args);
    } finally {
      outWriter.flush();
      errWriter.flush();
    }
  }
}
