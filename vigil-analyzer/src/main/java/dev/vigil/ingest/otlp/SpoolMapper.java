package dev.vigil.ingest.otlp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.google.protobuf.InvalidProtocolBufferException;
import dev.vigil.ingest.IngestStats;
import dev.vigil.io.AtomicWrite;
import dev.vigil.io.Notice;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventQueues;
import dev.vigil.observe.EventWire;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ChronicleQueue;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;

/**
 * Turns what the receiver spooled into events of the agents' queue (docs/OPENTELEMETRY.md#the-
 * receiver), on one thread: it reads each spooled request, assembles its spans into traces ({@link
 * TraceAssembly}), maps each complete trace turn by turn ({@link Turns}) and appends the events to
 * the queue {@code watch} tails, where they are deposited like the agent's own, each once by its
 * span ({@link dev.vigil.ingest.EventIdentity#ofSpan}).
 *
 * <p>Its position file says where to read again after a restart: from the oldest request a pending
 * trace still needs, with the traces mapped since then, so that a restart neither loses a trace nor
 * maps one twice. A span sent again (an exporter's retry) within {@link #RECENT} of its trace's
 * mapping is dropped. Only a crash between appending a trace's events and writing the position can
 * append that trace's events twice; the bank still deposits them once.
 */
public final class SpoolMapper implements AutoCloseable {
  /** How long a mapped trace is remembered, so that a retry of it is dropped. */
  static final Duration RECENT = Duration.ofMinutes(10);

  /** The position file, in the spool's directory. */
  public static final String POSITION = "mapped.json";

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final long IDLE_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

  private final OtlpSpool spool;
  private final Path positionFile;
  private final Path queueDir;
  private final Clock clock;
  private final TraceAssembly assembly = new TraceAssembly();
  private final IngestStats skipped = new IngestStats();

  /** Traces mapped, with the last spool index each needed and when it was mapped. */
  private final Map<String, Mapped> mapped = new LinkedHashMap<>();

  private volatile boolean stopping;
  private volatile long events;
  private volatile long spans;
  private volatile RuntimeException failure;
  private Thread thread;
  private long lastRead = -1;

  /** A trace mapped: the last spool index it needed, when, and its spans. */
  private record Mapped(long lastIndex, Instant at, java.util.Set<String> spanIds) {}

  /**
   * @param spool where the receiver keeps the requests
   * @param spoolDir the spool's directory: its position file lives there
   * @param queueDir the queue the events are appended to
   * @param clock when traces are quiet and mapped
   */
  public SpoolMapper(OtlpSpool spool, Path spoolDir, Path queueDir, Clock clock) {
    this.spool = spool;
    this.positionFile = spoolDir.resolve(POSITION);
    this.queueDir = queueDir;
    this.clock = clock;
  }

  /** Starts the mapping thread. */
  public synchronized void start() throws IOException {
    Position p = Position.read(positionFile);
    p.mapped.forEach(
        (id, last) -> mapped.put(id, new Mapped(last, clock.instant(), java.util.Set.of())));
    thread = new Thread(() -> run(p), "vigil-otlp-mapper");
    thread.setDaemon(true);
    thread.start();
  }

  /** Events appended so far. */
  public long events() {
    return events;
  }

  /** Why the mapping thread stopped before it was asked to, or null. */
  public RuntimeException failure() {
    return failure;
  }

  /** Spans read so far. */
  public long spans() {
    return spans;
  }

  /** Spans skipped, by reason. */
  public Map<String, Long> skipped() {
    synchronized (skipped) {
      return skipped.skipped();
    }
  }

  private void run(Position p) {
    try (ChronicleQueue queue = EventQueues.openForWriting(queueDir, System::currentTimeMillis);
        ExcerptAppender appender = queue.createAppender()) {
      ExcerptTailer tailer = spool.tailer();
      resume(tailer, p);
      while (!stopping) {
        boolean read = readSome(tailer);
        boolean flushed = emit(assembly.due(clock.instant()), appender);
        if (read || flushed) {
          writePosition();
        } else {
          LockSupport.parkNanos(IDLE_PARK_NANOS);
        }
      }
      writePosition();
    } catch (RuntimeException e) {
      failure = e;
      System.err.println(
          Notice.line(
              clock.instant(),
              "watch",
              Notice.Level.ERROR,
              "the OTLP spool mapper stopped: "
                  + e
                  + "; what was spooled stays in the spool and is mapped at the next start"));
    }
  }

  private static void resume(ExcerptTailer tailer, Position p) {
    if (p.from >= 0 && tailer.moveToIndex(p.from)) {
      return;
    }
    if (p.after >= 0 && tailer.moveToIndex(p.after)) {
      tailer.readingDocument().close(); // mapped before the last stop
      return;
    }
    tailer.toStart();
  }

  /** Reads up to 100 spooled requests; whether it read any. */
  private boolean readSome(ExcerptTailer tailer) {
    boolean any = false;
    for (int i = 0; i < 100 && !stopping; i++) {
      long index;
      byte[] bytes;
      try (DocumentContext dc = tailer.readingDocument()) {
        if (!dc.isPresent()) {
          break;
        }
        index = dc.index();
        Bytes<?> b = dc.wire().bytes();
        bytes = new byte[(int) b.readRemaining()];
        b.read(bytes);
      }
      any = true;
      lastRead = index;
      add(index, bytes);
    }
    return any;
  }

  private void add(long index, byte[] bytes) {
    List<TraceSpan> fresh = new ArrayList<>();
    try {
      for (TraceSpan s : TraceSpans.of(ExportTraceServiceRequest.parseFrom(bytes))) {
        spans++;
        Mapped m = mapped.get(s.traceId());
        if (m != null && index <= m.lastIndex) {
          continue; // mapped before a restart: read again only because an older trace is pending
        }
        if (m != null && m.spanIds.contains(s.spanId())) {
          synchronized (skipped) {
            skipped.skip(OtlpFile.DUPLICATE); // an exporter's retry
          }
          continue;
        }
        fresh.add(s); // new, or a child delivered after its trace was mapped
      }
    } catch (InvalidProtocolBufferException e) {
      synchronized (skipped) {
        skipped.skip("otlp_not_traces"); // the receiver spools only what it decoded
      }
      return;
    }
    long[] duplicates = {0};
    assembly.add(index, fresh, clock.instant(), duplicates);
    synchronized (skipped) {
      for (long d = 0; d < duplicates[0]; d++) {
        skipped.skip(OtlpFile.DUPLICATE);
      }
    }
  }

  private boolean emit(List<TraceAssembly.Complete> traces, ExcerptAppender appender) {
    for (TraceAssembly.Complete t : traces) {
      List<Event> out;
      synchronized (skipped) {
        out = Turns.of(t.spans(), skipped::skip);
      }
      for (Event e : out) {
        EventWire.append(appender, e);
        events++; // this thread only
      }
      java.util.Set<String> ids = new java.util.HashSet<>();
      Mapped before = mapped.get(t.traceId());
      if (before != null) {
        ids.addAll(before.spanIds());
      }
      t.spans().forEach(s -> ids.add(s.spanId()));
      long last = before == null ? t.lastIndex() : Math.max(before.lastIndex(), t.lastIndex());
      mapped.put(t.traceId(), new Mapped(last, clock.instant(), ids));
    }
    return !traces.isEmpty();
  }

  /**
   * Writes where a restart reads again, and forgets what it will not read again nor see retried.
   */
  private void writePosition() {
    long from = assembly.oldestNeeded(-1);
    Instant now = clock.instant();
    Map<String, Long> keep = new HashMap<>();
    for (Iterator<Map.Entry<String, Mapped>> it = mapped.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, Mapped> e = it.next();
      boolean reread = from >= 0 && e.getValue().lastIndex >= from;
      if (reread) {
        keep.put(e.getKey(), e.getValue().lastIndex);
      } else if (!e.getValue().at.plus(RECENT).isAfter(now)) {
        it.remove();
      }
    }
    ObjectNode json = MAPPER.createObjectNode();
    json.put("from", from);
    json.put("after", lastRead);
    ObjectNode traces = json.putObject("mapped");
    keep.forEach(traces::put);
    try {
      AtomicWrite.replace(positionFile, json.toString());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("OTLP spool position " + positionFile, e);
    }
  }

  /** Where to read again: from a pending trace's first request, else after the last one read. */
  private record Position(long from, long after, Map<String, Long> mapped) {
    static Position read(Path file) throws IOException {
      if (!Files.exists(file)) {
        return new Position(-1, -1, Map.of());
      }
      JsonNode j;
      try {
        j = MAPPER.readTree(file.toFile());
      } catch (IOException e) {
        throw new IOException("OTLP spool position " + file + " is not JSON: " + e.getMessage(), e);
      }
      if (j == null || !j.path("from").isIntegralNumber() || !j.path("after").isIntegralNumber()) {
        throw new IOException("OTLP spool position " + file + " lacks from and after");
      }
      Map<String, Long> m = new HashMap<>();
      j.path("mapped").fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue().asLong()));
      return new Position(j.get("from").asLong(), j.get("after").asLong(), m);
    }
  }

  /** Stops after the request in hand, writing the position; pending traces wait in the spool. */
  @Override
  public synchronized void close() {
    stopping = true;
    if (thread != null) {
      LockSupport.unpark(thread);
      try {
        thread.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
