package dev.vigil.ingest.otlp;

import java.util.List;
import java.util.Map;

/**
 * One span of a trace, as much of it as the mapping reads (docs/OPENTELEMETRY.md#traces-in):
 * attribute values are kept as text (a string as it is; a number or boolean as written; an array or
 * map as JSON).
 *
 * @param traceId the trace id, lower-case hex
 * @param spanId the span id, lower-case hex
 * @param parentId the parent span's id, or empty for a root span
 * @param name the span's name
 * @param startNanos start, Unix epoch nanoseconds
 * @param endNanos end, Unix epoch nanoseconds
 * @param attributes the span's attributes
 * @param error whether the span's status is ERROR
 * @param statusMessage the status message, or empty
 * @param events the span's events, in order
 * @param service the resource's {@code service.name}, or null
 */
public record TraceSpan(
    String traceId,
    String spanId,
    String parentId,
    String name,
    long startNanos,
    long endNanos,
    Map<String, String> attributes,
    boolean error,
    String statusMessage,
    List<SpanEvent> events,
    String service) {

  /** An event of a span: a name, a time and attributes. */
  public record SpanEvent(String name, long timeNanos, Map<String, String> attributes) {}

  /** The attribute {@code key}, or null when absent or blank. */
  public String attr(String key) {
    String v = attributes.get(key);
    return v == null || v.isBlank() ? null : v;
  }

  /** The first of {@code keys} the span carries, or null. */
  public String attr(String... keys) {
    for (String k : keys) {
      String v = attr(k);
      if (v != null) {
        return v;
      }
    }
    return null;
  }

  /** The span's first event named {@code name}, or null. */
  public SpanEvent event(String eventName) {
    for (SpanEvent e : events) {
      if (e.name().equals(eventName)) {
        return e;
      }
    }
    return null;
  }
}
