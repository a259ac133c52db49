package dev.vigil.api;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.diagnose.detect.Detection;
import dev.vigil.orchestrate.PassResult;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What {@link Analyzer#run()} did: one pass, or one pass per agent when the input holds a fleet.
 *
 * @param passes each agent's pass, in the order the agents were first seen (one entry for a single
 *     agent)
 * @param fleet whether each agent got its own bank and reports under {@code agents/}
 * @param fleetSummary the fleet summary written to {@code --out/report.json}, or null (one agent,
 *     or artifacts not written)
 */
public record Analysis(List<AgentPass> passes, boolean fleet, ObjectNode fleetSummary) {
  /**
   * One agent's pass.
   *
   * @param agent the agent's display name, or null when the input was not split by agent
   * @param result what the pass found and did
   */
  public record AgentPass(String agent, PassResult result) {}

  /** Copies the list. */
  public Analysis {
    passes = List.copyOf(passes);
  }

  /**
   * The pass of a single agent's input (the first pass of a fleet's; null when a fleet had no agent
   * in the window).
   */
  public PassResult result() {
    return passes.isEmpty() ? null : passes.get(0).result();
  }

  /**
   * The mood of the single agent's pass (its EmoBank's dominant emotion), or null when there was no
   * pass.
   */
  public String mood() {
    PassResult r = result();
    return r == null ? null : r.snapshot().mood();
  }

  /** How many thorns the single agent's pass diagnosed (0 when there was no pass). */
  public int thorns() {
    PassResult r = result();
    return r == null ? 0 : r.diagnosis().thorns().size();
  }

  /** What each detector of the single agent's pass counted, by name, in the order they ran. */
  public Map<String, Integer> detections() {
    Map<String, Integer> out = new LinkedHashMap<>();
    PassResult r = result();
    if (r != null) {
      for (Detection d : r.detections()) {
        out.put(d.name(), d.count());
      }
    }
    return out;
  }

  /** Whether any pass finished degraded (exit 1 on the command line). */
  public boolean degraded() {
    return passes.stream().anyMatch(p -> p.result().degraded());
  }
}
