package dev.vigil.report;

import dev.vigil.orchestrate.InternalThorn;
import dev.vigil.orchestrate.PassResult;
import java.io.PrintWriter;

/** What went wrong in a pass, one line each, for stderr: a refused prompt, each internal thorn and its remedy. */
public final class PassProblems {
  private PassProblems() {}

  /** Prints the pass's problems, each line starting with {@code prefix} (which names the command and agent). */
  public static void print(PassResult r, String prefix, PrintWriter err) {
    if (r.prompt() != null && r.prompt().isRefused()) {
      err.println(prefix + r.prompt().summary());
    }
    for (InternalThorn t : r.internalThorns()) {
      err.println(prefix + "internal thorn " + t.type() + " at stage " + t.stage() + ": " + t.message());
      err.println(prefix + "  " + t.suggestion());
    }
  }
}
