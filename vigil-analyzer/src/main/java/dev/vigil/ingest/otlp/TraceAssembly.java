package dev.vigil.ingest.otlp;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Traces being assembled from spans that arrive in many requests (docs/OPENTELEMETRY.md#the-
 * receiver): a batch exporter sends a trace's children before its root. A trace is complete when
 * {@link #SETTLE} after its root span (one without a parent) arrived, since exporters that send
 * concurrently may deliver a child after its root, or when no span of it has arrived for {@link
 * #QUIET} (a trace whose root lies in a service that does not export to Vigil). Each trace keeps
 * the spool index of its first request, so that the oldest index a pending trace needs is known.
 */
public final class TraceAssembly {
  /** How long a trace without its root waits for more spans. */
  public static final Duration QUIET = Duration.ofSeconds(10);

  /** How long a trace waits after its root span for children delivered late. */
  public static final Duration SETTLE = Duration.ofSeconds(2);

  /** A trace whose spans are still arriving. */
  private static final class Pending {
    final List<TraceSpan> spans = new ArrayList<>();
    final Set<String> ids = new HashSet<>();
    final long firstIndex;
    long lastIndex;
    Instant lastArrival;
    Instant rootArrival;

    Pending(long firstIndex) {
      this.firstIndex = firstIndex;
    }
  }

  /** A trace ready to be mapped, with the last spool index it needed. */
  public record Complete(String traceId, List<TraceSpan> spans, long lastIndex) {}

  private final Map<String, Pending> pending = new LinkedHashMap<>();

  /**
   * Adds the spans of the request at spool index {@code index}; a span already held (same trace and
   * span id) is counted in {@code duplicates} and dropped.
   */
  public void add(long index, List<TraceSpan> spans, Instant now, long[] duplicates) {
    for (TraceSpan s : spans) {
      Pending p = pending.computeIfAbsent(s.traceId(), k -> new Pending(index));
      if (!p.ids.add(s.spanId())) {
        duplicates[0]++;
        continue;
      }
      p.spans.add(s);
      p.lastIndex = index;
      p.lastArrival = now;
      if (s.parentId().isEmpty() && p.rootArrival == null) {
        p.rootArrival = now;
      }
    }
  }

  /**
   * Takes the traces complete at {@code now}: {@link #SETTLE} after their root arrived, or quiet
   * for {@link #QUIET}.
   */
  public List<Complete> due(Instant now) {
    List<Complete> out = new ArrayList<>();
    for (Iterator<Map.Entry<String, Pending>> it = pending.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, Pending> e = it.next();
      Pending p = e.getValue();
      boolean settled = p.rootArrival != null && !p.rootArrival.plus(SETTLE).isAfter(now);
      if (settled || !p.lastArrival.plus(QUIET).isAfter(now)) {
        it.remove();
        out.add(new Complete(e.getKey(), p.spans, p.lastIndex));
      }
    }
    return out;
  }

  /** The oldest spool index a pending trace needs, or {@code orElse} when none is pending. */
  public long oldestNeeded(long orElse) {
    long min = Long.MAX_VALUE;
    for (Pending p : pending.values()) {
      min = Math.min(min, p.firstIndex);
    }
    return pending.isEmpty() ? orElse : min;
  }

  /** Traces pending. */
  public int size() {
    return pending.size();
  }
}
