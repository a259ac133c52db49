package dev.vigil.observe;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;

/**
 * An event read and checked in full whose payload may still be its JSON bytes: a reader that keeps only some of the
 * events it reads (the newest {@code --limit} of a large file) builds the payload tree of those alone. The payload's
 * JSON was checked when the line was read, so building it cannot fail. {@link #event()} builds the event once.
 */
public final class PendingEvent {
  private final Instant ts;
  private final String kind;
  private final String status;
  private final String agent;
  private final Long seq;
  private final Long pid;
  private final String thread;
  private final String turn;
  private final String callId;
  private final boolean naiveTs;
  private byte[] payloadJson;
  private Event event;

  PendingEvent(Instant ts, String kind, String status, byte[] payloadJson, String agent, Long seq, Long pid,
      String thread, String turn, String callId, boolean naiveTs) {
    this.ts = ts;
    this.kind = kind;
    this.status = status;
    this.payloadJson = payloadJson;
    this.agent = agent;
    this.seq = seq;
    this.pid = pid;
    this.thread = thread;
    this.turn = turn;
    this.callId = callId;
    this.naiveTs = naiveTs;
  }

  /** An event already built (read from a queue, say). */
  public static PendingEvent of(Event event, boolean naiveTs) {
    PendingEvent p = new PendingEvent(event.ts(), event.kind(), event.status(), null, event.agent(), event.seq(),
        event.pid(), event.thread(), event.turn(), event.callId(), naiveTs);
    p.event = event;
    return p;
  }

  /** The event's {@code ts}, in UTC. */
  public Instant ts() {
    return ts;
  }

  /** The event's {@code agent}, or null. */
  public String agent() {
    return agent;
  }

  /** Whether its {@code ts} had no offset and was read in the assumed zone. */
  public boolean naiveTs() {
    return naiveTs;
  }

  /** The event, its payload tree built on the first call. */
  public synchronized Event event() {
    if (event == null) {
      ObjectNode payload;
      try {
        payload = (ObjectNode) EventJson.mapper().readTree(payloadJson);
      } catch (IOException e) {
        throw new UncheckedIOException("a payload checked when read could not be built", e);
      }
      event = new Event(ts, kind, status, payload, agent, seq, pid, thread, turn, callId);
      payloadJson = null;
    }
    return event;
  }
}
