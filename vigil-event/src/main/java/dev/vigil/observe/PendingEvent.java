package dev.vigil.observe;

import java.time.Instant;
import java.time.ZoneId;

/**
 * An event read and checked in full that may still be its JSON line: a reader that keeps only some
 * of the events it reads (the newest {@code --limit} of a large file) decodes the fields and builds
 * the payload tree of those alone. The line was checked when it was read, so building the event
 * cannot fail. {@link #event()} builds it once.
 */
public final class PendingEvent {
  private final Instant ts;
  private final String agent;
  private final boolean naiveTs;
  private byte[] line;
  private final ZoneId assumeZone;
  private Event event;

  PendingEvent(Instant ts, String agent, boolean naiveTs, byte[] line, ZoneId assumeZone) {
    this.ts = ts;
    this.agent = agent;
    this.naiveTs = naiveTs;
    this.line = line;
    this.assumeZone = assumeZone;
  }

  /** An event already built (read from a queue, say). */
  public static PendingEvent of(Event event, boolean naiveTs) {
    PendingEvent p = new PendingEvent(event.ts(), event.agent(), naiveTs, null, null);
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

  /** The event, decoded and its payload tree built on the first call. */
  public synchronized Event event() {
    if (event == null) {
      try {
        event = EventJson.read(line, 0, line.length, assumeZone).event();
      } catch (EventFormatException e) {
        throw new IllegalStateException(
            "a line checked when read could not be decoded: " + e.getMessage(), e);
      }
      line = null;
    }
    return event;
  }
}
