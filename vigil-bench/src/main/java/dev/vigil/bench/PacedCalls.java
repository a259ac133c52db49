package dev.vigil.bench;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

/**
 * The application of the {@code watch} delay figure ({@link WatchDelay}): a tool called at its own
 * pace, driven from stdin. A line {@code N MS} makes N calls {@code MS} milliseconds apart (0: back
 * to back) and then prints {@code done <total>}; end of input ends the process. Knows nothing of
 * Vigil: the benchmark attaches it with {@code vigil.methods.include}.
 */
public final class PacedCalls {
  private PacedCalls() {}

  /** The tool: what an agent's reminder tool returns. */
  public static String remind(String what, int minutes) {
    return "reminder set: " + what + " in " + minutes + " min";
  }

  public static void main(String[] args) throws Exception {
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    long total = 0;
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      String[] parts = line.trim().split("\\s+");
      if (parts.length != 2) {
        continue;
      }
      int n = Integer.parseInt(parts[0]);
      long pauseMs = Long.parseLong(parts[1]);
      for (int i = 0; i < n; i++) {
        if (pauseMs > 0 && i > 0) {
          Thread.sleep(pauseMs);
        }
        total++;
        remind("call " + total, (int) (total % 60));
      }
      System.out.println("done " + total);
      System.out.flush();
    }
  }
}
