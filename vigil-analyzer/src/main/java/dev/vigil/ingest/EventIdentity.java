package dev.vigil.ingest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventJson;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;

/**
 * The 64-bit identity that makes deposits exactly-once (docs/DESIGN.md#the-window). For JSONL it is
 * a stable hash of {@code agent}, {@code kind}, {@code status}, {@code ts} and the payload, so the
 * same event read from a repeated or overlapping file has the same identity; for a queue it is the
 * excerpt's index mixed with the queue's path.
 *
 * <p>The hash is FNV-1a over the fields' UTF-8 bytes, finished with the SplitMix64 mixer; 64 bits
 * keep the chance of two distinct events colliding below one in a billion for ten million events.
 */
public final class EventIdentity {
  private static final long FNV_OFFSET = 0xcbf29ce484222325L;
  private static final long FNV_PRIME = JsonHash.FNV_PRIME;

  private EventIdentity() {}

  /** The content identity of an event read from JSONL. */
  public static long ofContent(Event e) {
    long h = envelope(e);
    try {
      return finish(JsonHash.hash(h, e.payload()));
    } catch (JsonHash.NotWritten unusual) {
      return finish(writtenByJackson(h, e.payload()));
    }
  }

  /** The hash state after the fields of {@link #ofContent} that come before the payload. */
  static long envelope(Event e) {
    long h = FNV_OFFSET;
    h = mixString(h, e.agent());
    h = mixString(h, e.kind());
    h = mixString(h, e.status());
    Instant ts = e.ts();
    h = mixLong(h, ts.getEpochSecond());
    return mixLong(h, ts.getNano());
  }

  /**
   * {@code h} advanced over the bytes Jackson's mapper writes for {@code payload}, as {@code
   * writeValueAsBytes} gives them: what {@link JsonHash} does without a generator, kept for the
   * trees it does not write itself.
   */
  static long writtenByJackson(long h, JsonNode payload) {
    Fnv sink = new Fnv(h);
    try {
      EventJson.mapper().writeValue(sink, payload);
    } catch (IOException ex) {
      throw new IllegalStateException("payload of an event could not be serialized", ex);
    }
    return sink.h;
  }

  /** FNV-1a over the bytes written to it. */
  private static final class Fnv extends OutputStream {
    long h;

    Fnv(long h) {
      this.h = h;
    }

    @Override
    public void write(int b) {
      h = (h ^ (b & 0xff)) * FNV_PRIME;
    }

    @Override
    public void write(byte[] b, int off, int len) {
      long x = h;
      for (int i = off, end = off + len; i < end; i++) {
        x = (x ^ (b[i] & 0xff)) * FNV_PRIME;
      }
      h = x;
    }
  }

  /** The identity of the excerpt at {@code index} in the queue whose key is {@code queueKey}. */
  public static long ofQueueIndex(String queueKey, long index) {
    return new OfQueue(queueKey).ofIndex(index);
  }

  /**
   * The identity of the event at place {@code k} of the excerpt at {@code index} (a batch's,
   * docs/DESIGN.md#the-queue); for {@code k} 0 the excerpt's, as {@link #ofQueueIndex} gives it.
   */
  public static long ofQueueIndex(String queueKey, long index, int k) {
    return new OfQueue(queueKey).ofIndex(index, k);
  }

  /**
   * The identities of one queue's events, as {@link #ofQueueIndex} and {@link #ofQueueEvent} give
   * them, with the queue's key hashed once rather than once an event.
   */
  public static final class OfQueue {
    private final long keyState;

    /** For the queue whose key is {@code queueKey}. */
    public OfQueue(String queueKey) {
      keyState = mixString(FNV_OFFSET, queueKey);
    }

    /** {@link #ofQueueIndex} of this queue. */
    public long ofIndex(long index) {
      return finish(mixLong(keyState, index));
    }

    /** {@link #ofQueueIndex(String, long, int)} of this queue. */
    public long ofIndex(long index, int k) {
      return k == 0 ? ofIndex(index) : finish(mixLong(mixLong(keyState, index), k));
    }

    /** {@link #ofQueueEvent} of this queue. */
    public long ofEvent(Event e, long index) {
      return ofEvent(e, index, 0);
    }

    /**
     * {@link #ofQueueEvent} of this queue for the event at place {@code k} of the excerpt at {@code
     * index} (a batch, docs/DESIGN.md#the-queue); the first or only event of an excerpt has the
     * identity it had before excerpts held several.
     */
    public long ofEvent(Event e, long index, int k) {
      JsonNode otel = e.payload().get("otel");
      if (otel != null && otel.path("trace_id").isTextual() && otel.path("span_id").isTextual()) {
        return ofSpan(otel.get("trace_id").asText(), otel.get("span_id").asText(), e.kind());
      }
      return ofIndex(index, k);
    }
  }

  /**
   * The identity of an event mapped from an OpenTelemetry span (docs/OPENTELEMETRY.md): its trace
   * and span id and its kind, so that a span sent, spooled or mapped twice is deposited once.
   */
  public static long ofSpan(String traceId, String spanId, String kind) {
    return finish(mixString(mixString(mixString(FNV_OFFSET, traceId), spanId), kind));
  }

  /**
   * The identity of the event at {@code index} of a queue: by its span when it was mapped from one
   * ({@code payload.otel}), else by its place in the queue.
   */
  public static long ofQueueEvent(Event e, String queueKey, long index) {
    return new OfQueue(queueKey).ofEvent(e, index);
  }

  /**
   * The identity of what {@code detector} derived from the event whose identity is {@code source}.
   */
  public static long ofDerived(String detector, long source) {
    return finish(mixLong(mixString(FNV_OFFSET, detector), source));
  }

  private static long mixString(long h, String s) {
    if (s == null) {
      return (h ^ 0xff) * FNV_PRIME;
    }
    int n = s.length();
    int i = 0;
    while (i < n && s.charAt(i) < 0x80) { // ASCII: the char is its UTF-8 byte
      h = (h ^ s.charAt(i)) * FNV_PRIME;
      i++;
    }
    if (i < n) {
      for (byte b : s.substring(i).getBytes(StandardCharsets.UTF_8)) {
        h = (h ^ (b & 0xff)) * FNV_PRIME;
      }
    }
    return (h ^ 0xfe) * FNV_PRIME;
  }

  private static long mixLong(long h, long v) {
    for (int i = 0; i < 8; i++) {
      h = (h ^ ((v >>> (8 * i)) & 0xff)) * FNV_PRIME;
    }
    return h;
  }

  /** SplitMix64's finalizer. */
  static long finish(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
