package dev.vigil.cli;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.reflect.Method;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.management.DynamicMBean;
import javax.management.ObjectName;

/**
 * The launcher's choice of compiler for a one-off pass, made from inside the JVM for {@code java
 * -jar vigil-analyzer.jar} (docs/COMMANDS.md#the-compiler-of-a-one-off-pass): a {@code run} over a
 * JSONL file or a queue whose files take under {@value #LARGE_FILE_BYTES} bytes that uses fewer
 * than {@value #SECOND_COMPILER_FROM} events ends before the second compiler's work pays back on
 * two cores (a larger input's first reading of every event does pay it back), so its methods are
 * kept from that compiler by a compiler directive (the JDK's {@code Compiler.directives_add}
 * diagnostic command) and run as the first compiler compiles them, as {@code
 * -XX:TieredStopAtLevel=1} would have them. A JVM given a choice of its own ({@code
 * -XX:TieredStopAtLevel}, {@code -XX:-TieredCompilation}, a directives file, {@code -Xint} or
 * {@code -Xcomp}) keeps it. The directive is added on a thread of its own while the command starts;
 * whatever fails there, the command runs as it would have.
 */
final class FirstCompiler {
  /** A pass told to use this many events or more keeps the second compiler. */
  static final long SECOND_COMPILER_FROM = 500_000;

  /**
   * A pass over an input of this many bytes or more keeps the second compiler (128 MiB): a JSONL
   * file's size, or the sum of a queue's {@code .cq4} files' sizes. Chronicle grows a queue's file
   * in blocks of 64 MiB past its first 80 MiB, so a queue under this holds at most about 64 MiB of
   * events in one file, as the launcher's own rule for queues measures it on disk.
   */
  static final long LARGE_FILE_BYTES = 128L << 20;

  /** Every method: the second compiler compiles none of them. */
  static final String EVERY_METHOD = "*.*";

  private FirstCompiler() {}

  /**
   * Whether the command of {@code args} is a one-off pass that the first compiler alone finishes
   * sooner, in a JVM started with {@code jvmArguments}: {@code run} over JSONL from standard input
   * or from a file ({@code --events}, {@code --otlp}), or over a queue ({@code --queue}), that
   * {@code bytes} finds under {@value #LARGE_FILE_BYTES} bytes, {@code --limit} under {@value
   * #SECOND_COMPILER_FROM} (500 when not given), and no compiler choice among the JVM's arguments.
   *
   * @param bytes the size of an input file, or of a queue directory's files; throws when it cannot
   *     be read (the command then says what is wrong)
   */
  static boolean suits(String[] args, List<String> jvmArguments, FileSize bytes) {
    if (args.length == 0 || !args[0].equals("run")) {
      return false;
    }
    String input = RawArgs.valueOf(args, "--queue");
    if (input == null && RawArgs.has(args, "--queue")) {
      return false; // a queue the command refuses
    }
    if (input == null) {
      input = RawArgs.valueOf(args, "--events");
    }
    if (input == null) {
      input = RawArgs.valueOf(args, "--otlp");
    }
    String limit = RawArgs.valueOf(args, "--limit");
    try {
      if (input != null && !input.equals("-") && bytes.of(Path.of(input)) >= LARGE_FILE_BYTES) {
        return false;
      }
      if (limit != null && Long.parseLong(limit.trim()) >= SECOND_COMPILER_FROM) {
        return false; // 500 when not given
      }
    } catch (IOException | RuntimeException e) {
      return false; // an input or a limit the command refuses
    }
    for (String j : jvmArguments) {
      if (j.startsWith("-XX:TieredStopAtLevel")
          || j.equals("-XX:-TieredCompilation")
          || j.contains("CompilerDirectivesFile")
          || j.equals("-Xint")
          || j.equals("-Xcomp")) {
        return false;
      }
    }
    return true;
  }

  /** The size of a file, in bytes. */
  @FunctionalInterface
  interface FileSize {
    long of(Path file) throws IOException;
  }

  /**
   * The size of an input: a file's, or for a directory (a queue) the sum of its {@code .cq4} files'
   * sizes as the file system reports them.
   */
  static long inputBytes(Path input) throws IOException {
    if (!Files.isDirectory(input)) {
      return Files.size(input);
    }
    long sum = 0;
    try (DirectoryStream<Path> files = Files.newDirectoryStream(input, "*.cq4")) {
      for (Path f : files) {
        sum += Files.size(f);
      }
    }
    return sum;
  }

  /**
   * Keeps every method from the second compiler, on a daemon thread, when the command suits ({@link
   * #suits}); returns at once.
   */
  static void begin(String... args) {
    if (args.length == 0 || !args[0].equals("run")) {
      return; // nothing of the management classes loaded for other commands
    }
    Thread t =
        new Thread(
            () -> {
              try {
                List<String> jvm = ManagementFactory.getRuntimeMXBean().getInputArguments();
                if (suits(args, jvm, FirstCompiler::inputBytes)) {
                  keepFromSecondCompiler(EVERY_METHOD);
                }
              } catch (Exception | LinkageError e) {
                // a JVM without the command or its second compiler: the command runs as it would
              }
            },
            "vigil-first-compiler");
    t.setDaemon(true);
    t.start();
  }

  /**
   * Adds a compiler directive that keeps the methods {@code pattern} matches ({@code
   * package.Class::method}, {@code *} for any part) from the second compiler.
   *
   * @return what the diagnostic command answered
   */
  static String keepFromSecondCompiler(String pattern) throws Exception {
    Path directives = Files.createTempFile("vigil-compiler-", ".json");
    try {
      Files.writeString(directives, "[{ match: \"" + pattern + "\", c2: { Exclude: true } }]");
      return diagnosticCommand("compilerDirectivesAdd", directives.toString());
    } finally {
      Files.deleteIfExists(directives);
    }
  }

  /** Runs one of the JVM's diagnostic commands ({@code jcmd}'s, by its operation name). */
  static String diagnosticCommand(String operation, String... arguments) throws Exception {
    return diagnosticCommandThrough(commandsWithoutServer(COMMANDS_CLASS), operation, arguments);
  }

  /**
   * Runs a diagnostic command through {@code direct}, the JDK's bean of them ({@link
   * #commandsWithoutServer}), or through the platform's bean server when it is null.
   */
  static String diagnosticCommandThrough(DynamicMBean direct, String operation, String... arguments)
      throws Exception {
    Object[] params = {arguments};
    String[] signature = {String[].class.getName()};
    Object answer =
        direct != null
            ? direct.invoke(operation, params, signature)
            : ManagementFactory.getPlatformMBeanServer()
                .invoke(
                    new ObjectName("com.sun.management:type=DiagnosticCommand"),
                    operation,
                    params,
                    signature);
    return String.valueOf(answer);
  }

  /** The JDK's own bean of the diagnostic commands. */
  static final String COMMANDS_CLASS = "com.sun.management.internal.DiagnosticCommandImpl";

  /**
   * What loads the native half of {@link #COMMANDS_CLASS}, as the platform's bean server does
   * before it asks for that bean.
   */
  private static final String COMMANDS_LIBRARY_CLASS =
      "com.sun.management.internal.PlatformMBeanProviderImpl";

  /**
   * The bean of the diagnostic commands, {@code commandsClass}, taken straight from the JDK: the
   * platform's bean server, the public way to it, first registers every platform bean, about 550
   * classes and 150 ms of a two-core machine's start. Null where the JDK does not open it to Vigil:
   * the analyzer jar's manifest opens its package to {@code java -jar}; anywhere else the command
   * goes through the bean server.
   */
  static DynamicMBean commandsWithoutServer(String commandsClass) {
    try {
      Class.forName(COMMANDS_LIBRARY_CLASS);
      Method of = Class.forName(commandsClass).getDeclaredMethod("getDiagnosticCommandMBean");
      of.setAccessible(true);
      return of.invoke(null) instanceof DynamicMBean bean ? bean : null;
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      return null; // not opened, or a JDK whose bean lives elsewhere
    }
  }
}
