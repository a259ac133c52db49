package dev.vigil.orchestrate;

import dev.vigil.ingest.AgentName;
import dev.vigil.ingest.IngestSink;
import dev.vigil.ingest.IngestStats;
import dev.vigil.ingest.JsonlSource;
import dev.vigil.ingest.LineMarks;
import dev.vigil.ingest.QueueSource;
import dev.vigil.observe.ExcerptEvents;
import dev.vigil.observe.Timestamps;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The input of {@code run} (docs/DESIGN.md#the-window). A first reading reads and checks every line
 * or excerpt, counts the window's events (per agent when the input is read for a fleet, so a file
 * is read once however many agents it has) and finds where the newest {@code --limit} begin,
 * keeping 24 bytes an event up to the limit ({@link NewestKeys}); a large file is read in two parts
 * side by side, each keeping its own newest until they are merged; the pass then walks its events
 * by reading the input again ({@link WindowEvents}), so it never holds them, from a line the first
 * reading marked at or before the oldest event used ({@link LineMarks}). Standard input is copied
 * to a temporary file first, deleted when the JVM exits; a queue is read again from the excerpt of
 * the oldest event used (an event's place in the queue is its input order) up to the last excerpt
 * the first reading saw.
 */
public final class PassInput {
  /** The key of everything when the input is not split by agent. */
  private static final String ALL = "";

  /**
   * One agent's (or the whole input's) window: how many events, and the newest {@code --limit} of
   * them.
   */
  private static final class Kept {
    final NewestKeys newest;
    long inWindow;

    Kept(int limit) {
      newest = new NewestKeys(limit);
    }
  }

  /** Parts of a large JSONL file read side by side in the first reading. */
  private static final int PARTS = 2;

  private final Map<String, Kept> kept = new LinkedHashMap<>();

  /** Where some lines of a JSONL input begin, for the second reading's start. */
  private final LineMarks marks = new LineMarks();

  private final PassOptions options;
  private final boolean perAgent;
  private final String events;
  private final Instant windowStart;
  private IngestStats stats;
  private QueueSource queue;
  private long queueLastRead = -1;

  private PassInput(PassOptions options, boolean perAgent, String events) {
    this.options = options;
    this.perAgent = perAgent;
    this.events = events;
    this.windowStart = options.windowStart();
  }

  /**
   * Reads the input of {@code o} (only its agent's events when it names one) for the first time.
   *
   * @param perAgent keep each agent's newest events apart (for a fleet), rather than the newest of
   *     all
   * @param carried what was skipped before the input was read (the spans of an OTLP file that
   *     became no event), counted with the input's own skips
   * @throws IllegalArgumentException naming the input when it is missing or unreadable
   */
  public static PassInput read(
      PassOptions o, InputStream stdin, boolean perAgent, IngestStats carried) throws IOException {
    String events = o.events();
    if (JsonlSource.STDIN.equals(events)) {
      Path copy = Files.createTempFile("vigil-stdin-", ".jsonl");
      copy.toFile().deleteOnExit();
      Files.copy(stdin, copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      events = copy.toString();
    }
    PassInput input = new PassInput(o, perAgent, events);
    JsonlSource jsonl = events != null ? new JsonlSource(events, o.assumeZone(), stdin) : null;
    input.queue = o.queue() != null ? new QueueSource(o.queue()) : null;
    if (jsonl != null) {
      jsonl.check();
    }
    // a queue is read over the whole window, so that detectors see what earlier passes deposited
    try {
      if (jsonl != null) {
        input.scan(jsonl);
      } else {
        input.stats =
            input.queue.scan(
                o.now(),
                o.windowStart(),
                (ts, agent, place) -> {
                  if (o.acceptsAgent(agent)) {
                    // an event's place is its input order; its excerpt's index, where to read it
                    // again
                    input.offer(ts, agent, place, ExcerptEvents.indexOf(place));
                  }
                });
        input.queueLastRead = input.queue.lastRead();
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(
          input.describe() + " cannot be read: " + e.getMessage(), e);
    }
    input.stats.add(carried);
    return input;
  }

  /**
   * The first reading of a JSONL file: in {@value #PARTS} parts side by side when it is large, each
   * keeping its own newest, merged in input order (a line's number is its place in the input).
   */
  private void scan(JsonlSource jsonl) throws IOException {
    List<Map<String, Kept>> shares = new ArrayList<>(PARTS);
    shares.add(kept);
    for (int i = 1; i < PARTS; i++) {
      shares.add(new LinkedHashMap<>());
    }
    List<JsonlSource.ScannedPart> parts =
        jsonl.scan(PARTS, i -> (h, line) -> offer(shares.get(i), h.ts(), h.agent(), line, line));
    stats = parts.get(0).stats();
    marks.addAll(parts.get(0).marks(), 0);
    long shift = parts.get(0).lines();
    for (int i = 1; i < parts.size(); i++) {
      stats.add(parts.get(i).stats());
      marks.addAll(parts.get(i).marks(), shift);
      for (Map.Entry<String, Kept> e : shares.get(i).entrySet()) {
        Kept k = kept.computeIfAbsent(e.getKey(), x -> new Kept(options.limit()));
        k.newest.addAll(e.getValue().newest, shift);
        k.inWindow += e.getValue().inWindow;
      }
      shift += parts.get(i).lines();
    }
  }

  /** Counts an event of the first reading and offers it to its agent's newest. */
  private void offer(Instant ts, String agent, long n, long ref) {
    offer(kept, ts, agent, n, ref);
  }

  private void offer(Map<String, Kept> share, Instant ts, String agent, long n, long ref) {
    if (!options.acceptsAgent(agent)) {
      return; // another agent of a fleet: its own pass reads it
    }
    if (inWindow(ts)) {
      String key = perAgent ? AgentName.display(agent) : ALL;
      Kept k = share.get(key);
      if (k == null) {
        k = new Kept(options.limit());
        share.put(key, k);
      }
      k.newest.add(Timestamps.epochNanos(ts), n, ref);
      k.inWindow++;
    }
  }

  /** {@link PassOptions#inWindow}, with the window's start taken once. */
  private boolean inWindow(Instant ts) {
    return !ts.isBefore(windowStart) && !ts.isAfter(options.now());
  }

  private String describe() {
    return queue != null ? "queue " + options.queue() : "events file " + options.events();
  }

  /**
   * The display names of the agents with events in the window, first seen first (read per agent
   * only).
   */
  public Set<String> agents() {
    if (!perAgent) {
      throw new IllegalStateException("the input was not read per agent");
    }
    return kept.keySet();
  }

  /**
   * The window of the agent {@code agent} names, or of the whole input when it is null (the input
   * then holds at most one agent's events, or was not read per agent).
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
      throw new IllegalStateException(
          "the input holds " + kept.size() + " agents: a pass takes one");
    }
    Kept share = kept.get(key);
    String queueKey = queue == null ? null : queue.key();
    long lastIndex = queue == null ? -1 : queue.lastIndex();
    if (share == null || share.newest.size() == 0) {
      return new Window(
          WindowEvents.of(java.util.List.of()),
          stats.eventsRead(),
          0,
          stats.naiveTimestamps(),
          stats.skipped(),
          queueKey,
          lastIndex);
    }
    WindowEvents events =
        WindowEvents.reading(
            reader(key, share.newest.oldestTs(), share.newest.oldestOrder(), share.newest.minRef()),
            share.newest.size());
    return new Window(
        events,
        stats.eventsRead(),
        share.inWindow,
        stats.naiveTimestamps(),
        stats.skipped(),
        queueKey,
        lastIndex);
  }

  /**
   * Reads the input again, handing on the events of {@code key} from the oldest one used on: a
   * JSONL input from the line {@code firstRef} on, a queue from the excerpt at index {@code
   * firstRef} on (what comes before holds no event used).
   */
  private WindowEvents.Reader reader(String key, long fromTs, long fromOrder, long firstRef) {
    PassOptions o = options;
    return selected -> {
      QueueSource queueAgain = queue == null ? null : new QueueSource(o.queue());
      IngestSink sink =
          (event, identity, ref) -> {
            if (!o.acceptsAgent(event.agent())) {
              return;
            }
            long n = queueAgain == null ? ref : queueAgain.place();
            if (inWindow(event.ts())
                && (!perAgent || AgentName.display(event.agent()).equals(key))
                && !NewestKeys.less(Timestamps.epochNanos(event.ts()), n, fromTs, fromOrder)) {
              selected.accept(event, identity, ref, n);
            }
          };
      if (queueAgain != null) {
        // a pass of watch reads on its own thread alone: the other core is the tail's
        queueAgain.readThrough(
            queueLastRead, o.now(), o.windowStart(), firstRef, !o.liveBank(), sink);
      } else {
        try {
          JsonlSource again =
              new JsonlSource(events, o.assumeZone(), InputStream.nullInputStream());
          LineMarks.Mark from = marks.atOrBefore(firstRef);
          if (kept.size() > 1) {
            // other agents' lines may be many: only this agent's are built
            again.read(sink, firstRef, from);
          } else {
            // one agent: nearly every line from firstRef on is used
            again.readAhead(sink, firstRef, from);
          }
        } catch (IOException e) {
          throw new UncheckedIOException(
              describe() + " can no longer be read: " + e.getMessage(), e);
        }
      }
    };
  }
}
