package dev.vigil.fleet;

import dev.vigil.ingest.JsonlSource;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import dev.vigil.orchestrate.PassOptions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Set;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

/** Finds the agents whose events lie in a window, to decide between one agent's layout and a fleet's. */
public final class AgentScan {
  private AgentScan() {}

  /** The display names of the agents with events in the pass's window, in first-seen order. */
  public static Set<String> of(PassOptions o, InputStream stdin) throws IOException {
    if (o.queue() != null) {
      return inQueue(o.queue(), o.windowStart(), o.now());
    }
    Set<String> agents = new LinkedHashSet<>();
    JsonlSource source = new JsonlSource(o.events(), o.assumeZone(), stdin);
    source.check();
    source.read((event, identity, ref, naiveTs) -> {
      if (o.inWindow(event.ts())) {
        agents.add(AgentName.display(event.agent()));
      }
    });
    return agents;
  }

  /**
   * The display names of the agents with events in {@code [from, to]} (either bound null: open), reading only the
   * head of each excerpt.
   */
  public static Set<String> inQueue(Path dir, Instant from, Instant to) {
    Set<String> agents = new LinkedHashSet<>();
    try (ChronicleQueue queue = EventQueues.openForReading(dir)) {
      ExcerptTailer tailer = queue.createTailer();
      while (true) {
        try (DocumentContext dc = tailer.readingDocument()) {
          if (!dc.isPresent()) {
            return agents;
          }
          Bytes<?> bytes = dc.wire().bytes();
          try {
            Instant ts = EventWire.peekTs(bytes);
            if ((from == null || !ts.isBefore(from)) && (to == null || !ts.isAfter(to))) {
              agents.add(AgentName.display(EventWire.peekAgent(bytes)));
            }
          } catch (EventFormatException e) {
            // not an event: the pass skips and counts it
          }
        }
      }
    }
  }
}
