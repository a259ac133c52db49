package dev.vigil.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** Base of every analyzer command: the named exit codes and the command's output streams. */
abstract class VigilCommand implements Callable<Integer> {
  /** The pass or command finished normally. */
  public static final int EXIT_OK = 0;

  /**
   * The pass finished degraded: internal thorns were recorded (docs/STAGES.md#self-repair), or an
   * internal error.
   */
  public static final int EXIT_DEGRADED = 1;

  /** Bad usage or bad input: nothing useful was done. */
  public static final int EXIT_USAGE = 2;

  @Spec CommandSpec spec;

  /** Standard output of this invocation (stdout, or what a test passed to {@link Main#run}). */
  protected PrintWriter out() {
    return spec.commandLine().getOut();
  }

  /** Standard error of this invocation. */
  protected PrintWriter err() {
    return spec.commandLine().getErr();
  }
}
