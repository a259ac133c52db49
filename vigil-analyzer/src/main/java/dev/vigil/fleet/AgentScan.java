package dev.vigil.fleet;

import dev.vigil.ingest.AgentName;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import dev.vigil.observe.ExcerptEvents;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Set;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Finds the agents whose events lie in a window of a queue, to decide between one agent's layout
 * and a fleet's ({@code watch}; {@code run} learns them from its one read of the input, {@link
 * dev.vigil.orchestrate.PassInput}).
 */
public final class AgentScan {
  private AgentScan() {}

  /**
   * The display names of the agents with events in {@code [from, to]} (either bound null: open),
   * reading only the head of each excerpt.
   */
  public static Set<String> inQueue(Path dir, Instant from, Instant to) {
    Set<String> agents = new LinkedHashSet<>();
    ExcerptEvents events = new ExcerptEvents();
    try (ChronicleQueue queue = EventQueues.openForReading(dir)) {
      ExcerptTailer tailer = queue.createTailer();
      while (true) {
        try (DocumentContext dc = tailer.readingDocument()) {
          if (!dc.isPresent()) {
            return agents;
          }
          Bytes<?> bytes = dc.wire().bytes();
          events.start(bytes);
          while (true) {
            try {
              if (!events.next()) {
                break;
              }
              Bytes<?> event = events.event();
              Instant ts = EventWire.peekTs(event);
              if ((from == null || !ts.isBefore(from)) && (to == null || !ts.isAfter(to))) {
                agents.add(AgentName.display(EventWire.peekAgent(event)));
              }
            } catch (EventFormatException e) {
              // not an event: the pass skips and counts it
            }
          }
        }
      }
    }
  }
}
