package dev.vigil.orchestrate;

import dev.vigil.diagnose.detect.WindowEvent;
import dev.vigil.ingest.AgentName;
import dev.vigil.ingest.AgentName;
import dev.vigil.ingest.IngestSink;
import dev.vigil.ingest.IngestStats;
import dev.vigil.ingest.JsonlSource;
import dev.vigil.ingest.QueueSource;
import dev.vigil.observe.PendingEvent;
import java.io.IOException;
import java.io.InputStream;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * The input of {@code run}, read once (SPEC section 4.1): every line or excerpt is read and checked, and the newest
 * {@code --limit} events of the window are kept, per agent when the input is read for a fleet. {@code run} learns
 * from the same read which agents the window holds, so a file is read once however many agents it has; memory
 * stays proportional to {@code --limit} (times the agents), not to the input.
 */
public final class PassInput {
  private record Candidate(PendingEvent event, LongSupplier identity, long ref, long order) {
    Instant ts() {
      return event.ts();
    }
  }

  private static final Comparator<Candidate> EVENT_TIME =
      Comparator.comparing(Candidate::ts).thenComparingLong(Candidate::order);
  /** The key of everything when the input is not split by agent. */
  private static final String ALL = "";

  /** One agent's (or the whole input's) kept events and how many of its events the window held. */
  private static final class Kept {
    final NewestEvents<Candidate> newest;
    long inWindow;

    Kept(int limit) {
      newest = new NewestEvents<>(limit, EVENT_TIME);
    }
  }

  private final Map<String, Kept> kept = new LinkedHashMap<>();
  private final boolean perAgent;
  private IngestStats stats;
  private QueueSource queue;
  private long order;

  private PassInput(boolean perAgent) {
    this.perAgent = perAgent;
  }

  /**
   * Reads the input of {@code o} (only its agent's events when it names one).
   *
   * @param perAgent keep each agent's newest events apart (for a fleet), rather than the newest of all
   * @throws IllegalArgumentException naming the input when it is missing or unreadable
   */
  public static PassInput read(PassOptions o, InputStream stdin, boolean perAgent) throws IOException {
    PassInput input = new PassInput(perAgent);
    JsonlSource jsonl = o.events() != null ? new JsonlSource(o.events(), o.assumeZone(), stdin) : null;
    input.queue = o.queue() != null ? new QueueSource(o.queue()) : null;
    if (jsonl != null) {
      jsonl.check();
    }
    IngestSink sink = (event, identity, ref) -> {
      if (!o.acceptsAgent(event.agent())) {
        return; // another agent of a fleet: its own pass reads it
      }
      long n = input.order++;
      if (o.inWindow(event.ts())) {
        String key = perAgent ? AgentName.display(event.agent()) : ALL;
        Kept k = input.kept.computeIfAbsent(key, x -> new Kept(o.limit()));
        k.newest.add(new Candidate(event, identity, ref, n));
        k.inWindow++;
      }
    };
    // a queue is read over the whole window, so that detectors see what earlier passes deposited
    try {
      input.stats = jsonl != null ? jsonl.read(sink) : input.queue.read(-1, o.now(), o.windowStart(), sink);
    } catch (IOException e) {
      throw new IllegalArgumentException((jsonl != null ? "events file " + o.events() : "queue " + o.queue())
          + " cannot be read: " + e.getMessage(), e);
    }
    return input;
  }

  /** The display names of the agents with events in the window, first seen first (read per agent only). */
  public Set<String> agents() {
    if (!perAgent) {
      throw new IllegalStateException("the input was not read per agent");
    }
    return kept.keySet();
  }

  /**
   * The window of the agent {@code agent} names, or of the whole input when it is null (the input then holds at most
   * one agent's events, or was not read per agent).
   */
  Window window(String agent) {
    String key;
    if (!perAgent) {
      key = ALL;
    } else if (agent != null) {
      key = agent;
    } else if (kept.size() <= 1) {
      key = kept.isEmpty() ? ALL : kept.keySet().iterator().next();
    } else {
      throw new IllegalStateException("the input holds " + kept.size() + " agents: a pass takes one");
    }
    Kept share = kept.get(key);
    String queueKey = queue == null ? null : queue.key();
    long lastIndex = queue == null ? -1 : queue.lastIndex();
    if (share == null) {
      return new Window(List.of(), stats.eventsRead(), 0, stats.naiveTimestamps(), stats.skipped(), queueKey,
          lastIndex);
    }
    List<WindowEvent> window = new ArrayList<>();
    for (Candidate c : share.newest.oldestFirst()) {
      window.add(new WindowEvent(c.event().event(), c.identity().getAsLong(), c.ref(), c.event().naiveTs()));
    }
    return new Window(window, stats.eventsRead(), share.inWindow, stats.naiveTimestamps(), stats.skipped(),
        queueKey, lastIndex);
  }
}
