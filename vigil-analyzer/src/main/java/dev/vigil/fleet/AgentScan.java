package dev.vigil.fleet;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.vigil.ingest.JsonlLines;
import dev.vigil.ingest.JsonlSource;
import dev.vigil.observe.EventFormatException;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import dev.vigil.observe.Timestamps;
import dev.vigil.orchestrate.PassOptions;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Set;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

/** Finds the agents whose events lie in a window, to decide between one agent's layout and a fleet's. */
public final class AgentScan {
  private static final JsonFactory JSON = new JsonFactory();
  private AgentScan() {}

  /** The display names of the agents with events in the pass's window, in first-seen order. */
  public static Set<String> of(PassOptions o, InputStream stdin) throws IOException {
    if (o.queue() != null) {
      return inQueue(o.queue(), o.windowStart(), o.now());
    }
    new JsonlSource(o.events(), o.assumeZone(), stdin).check();
    Set<String> agents = new LinkedHashSet<>();
    try (InputStream in = JsonlSource.STDIN.equals(o.events()) ? stdin : Files.newInputStream(Path.of(o.events()))) {
      JsonlLines.read(in, (buf, from, to, lineNo) -> line(buf, from, to, o, agents));
    }
    return agents;
  }

  /**
   * Reads only the top-level {@code agent} and {@code ts} of a line, as bytes (the payload is skipped, not decoded),
   * and parses {@code ts} only for an agent not yet seen in the window: a fraction of what a pass spends per line.
   * Lines the pass would skip are skipped here too, as far as these two fields tell.
   */
  static void line(byte[] buf, int from, int to, PassOptions o, Set<String> agents) {
    String agent = null;
    String ts = null;
    try (JsonParser p = JSON.createParser(buf, from, to - from)) {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return;
      }
      while (p.nextToken() == JsonToken.FIELD_NAME) {
        String field = p.currentName();
        JsonToken value = p.nextToken();
        if (value == JsonToken.VALUE_STRING && field.equals("agent")) {
          agent = p.getText();
        } else if (value == JsonToken.VALUE_STRING && field.equals("ts")) {
          ts = p.getText();
        } else {
          p.skipChildren();
        }
      }
    } catch (IOException e) {
      return; // not JSON: the pass counts it
    }
    String name = AgentName.display(agent);
    if (ts == null || agents.contains(name)) {
      return;
    }
    try {
      if (o.inWindow(Timestamps.parse(ts, o.assumeZone()).instant())) {
        agents.add(name);
      }
    } catch (DateTimeException e) {
      // an unreadable ts: the pass counts it
    }
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
