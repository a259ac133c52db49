package dev.vigil.report;

import dev.vigil.io.Notice;
import dev.vigil.orchestrate.InternalThorn;
import dev.vigil.orchestrate.PassResult;
import java.io.PrintWriter;
import java.time.Instant;

/**
 * What went wrong in a pass, one line each, for stderr: a refused prompt, each internal thorn and
 * its remedy.
 */
public final class PassProblems {
  private PassProblems() {}

  /**
   * Prints the pass's problems as warnings of {@code command} at {@code at}, each message starting
   * with {@code agent} (the agent's part, or empty).
   */
  public static void print(
      PassResult r, Instant at, String command, String agent, PrintWriter err) {
    if (r.prompt() != null && r.prompt().isRefused()) {
      err.println(Notice.line(at, command, Notice.Level.WARN, agent + r.prompt().summary()));
    }
    for (InternalThorn t : r.internalThorns()) {
      err.println(
          Notice.line(
              at,
              command,
              Notice.Level.WARN,
              agent
                  + "internal thorn "
                  + t.type()
                  + " at stage "
                  + t.stage()
                  + ": "
                  + t.message()
                  + "; "
                  + t.suggestion()));
    }
  }
}
