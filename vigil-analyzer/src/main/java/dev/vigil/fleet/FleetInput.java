package dev.vigil.fleet;

import dev.vigil.ingest.JsonlSource;
import dev.vigil.orchestrate.PassOptions;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Set;

/**
 * The input of {@code run} seen as a fleet: the agents with events in the window, and the layout they call for.
 * Events read from stdin ({@code --events -}) are first copied to a temporary file, so that the scan and each
 * agent's pass can read them again.
 *
 * @param agents   display names of the agents in the window, first-seen order
 * @param layout   one agent's layout or a fleet's
 * @param stdinCopy the copy of stdin, or null when the input is not stdin
 */
public record FleetInput(Set<String> agents, FleetLayout layout, Path stdinCopy) {
  /**
   * Scans the input of {@code o}.
   *
   * @throws IllegalArgumentException naming the input when it is missing or unreadable
   */
  public static FleetInput scan(PassOptions o, InputStream stdin) throws IOException {
    if (!JsonlSource.STDIN.equals(o.events())) {
      Set<String> agents = AgentScan.of(o, InputStream.nullInputStream());
      return new FleetInput(agents, FleetLayout.of(o.emobank(), o.out(), agents), null);
    }
    Path copy = Files.createTempFile("vigil-stdin", ".jsonl");
    copy.toFile().deleteOnExit();
    Files.copy(stdin, copy, StandardCopyOption.REPLACE_EXISTING); // stdin itself is the caller's: left open
    Set<String> agents;
    try (InputStream in = Files.newInputStream(copy)) {
      agents = AgentScan.of(o, in);
    }
    return new FleetInput(agents, FleetLayout.of(o.emobank(), o.out(), agents), copy);
  }

  /** What a pass reads as stdin: the copy, read from its start, or nothing when the input is not stdin. */
  public InputStream stdin() {
    if (stdinCopy == null) {
      return InputStream.nullInputStream();
    }
    try {
      return Files.newInputStream(stdinCopy);
    } catch (IOException e) {
      throw new UncheckedIOException("the copy of stdin " + stdinCopy + " cannot be read", e);
    }
  }
}
