package dev.vigil.fleet;

import dev.vigil.ingest.AgentName;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where banks and reports go. One agent: the layout of a plain {@code run} ({@code --emobank} is
 * the bank, {@code --out} holds the reports). A fleet: each agent has {@code
 * <emobank>/agents/<dir>/} and {@code <out>/agents/<dir>/}, and {@code <out>/report.json} is the
 * fleet summary. A bank directory that has an {@code agents/} subdirectory stays a fleet from then
 * on.
 *
 * @param emobank the {@code --emobank} directory
 * @param out the {@code --out} directory
 * @param fleet whether agents get their own directories
 */
public record FleetLayout(Path emobank, Path out, boolean fleet) {
  /** The subdirectory of a fleet's banks and reports. */
  public static final String AGENTS = "agents";

  /** Whether the bank directory was already laid out for a fleet. */
  public static boolean isFleetBank(Path emobank) {
    return Files.isDirectory(emobank.resolve(AGENTS));
  }

  /**
   * The layout for these agents' display names: a fleet when the bank already is one or there are
   * several.
   */
  public static FleetLayout of(Path emobank, Path out, java.util.Collection<String> agents) {
    return new FleetLayout(emobank, out, isFleetBank(emobank) || agents.size() > 1);
  }

  /** The bank of an agent. */
  public Path bank(String agent) {
    return fleet ? emobank.resolve(AGENTS).resolve(AgentName.directory(agent)) : emobank;
  }

  /** The report directory of an agent. */
  public Path out(String agent) {
    return fleet ? out.resolve(AGENTS).resolve(AgentName.directory(agent)) : out;
  }

  /** This layout switched to a fleet. */
  public FleetLayout asFleet() {
    return new FleetLayout(emobank, out, true);
  }
}
