package dev.vigil.observe;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Instant;
import java.util.Objects;

/**
 * One thing the supervised agent did (docs/DESIGN.md#the-event): a tool call, a backend receipt, a
 * toast.
 *
 * <p>{@code ts}, {@code kind}, {@code status} and {@code payload} are required; the other
 * components are optional and {@code null} when absent. {@code ts} is the start of a call (its
 * result was reported at {@code ts + payload.duration_ms}). The payload is a JSON object tree; the
 * record does not copy it, so callers that keep a reference must not mutate it afterwards.
 *
 * @param ts when it happened (for a call, when it started), an instant in UTC
 * @param kind lower-case dotted kind, for example {@code tool.set_reminder}
 * @param status open set; the agent writes {@code ok}, {@code fail} and {@code timeout}
 * @param payload object, possibly empty
 * @param agent name of the supervised agent, or null
 * @param seq per-process monotonic sequence number, or null
 * @param pid process id of the agent, or null
 * @param thread name of the calling thread, or null
 * @param turn id shared by all tool calls made while answering one user message, or null
 * @param callId the framework's tool-call id ({@code call_id} in JSON), or null
 * @param session the conversation (LangChain4j's {@code @MemoryId}, Spring AI's conversation id),
 *     or null
 */
public record Event(
    Instant ts,
    String kind,
    String status,
    ObjectNode payload,
    String agent,
    Long seq,
    Long pid,
    String thread,
    String turn,
    String callId,
    String session) {

  /** Checks the required components. */
  public Event {
    Objects.requireNonNull(ts, "ts");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(payload, "payload");
  }

  /** An event with only the required fields, as in the paper's log format. */
  public static Event of(Instant ts, String kind, String status, ObjectNode payload) {
    return new Event(ts, kind, status, payload, null, null, null, null, null, null, null);
  }

  /** An event with only the required fields and an empty payload. */
  public static Event of(Instant ts, String kind, String status) {
    return of(ts, kind, status, JsonNodeFactory.instance.objectNode());
  }

  /** This event with {@code ts} replaced. */
  public Event withTs(Instant newTs) {
    return new Event(newTs, kind, status, payload, agent, seq, pid, thread, turn, callId, session);
  }

  /** This event with the process-level fields set. */
  public Event withOrigin(String newAgent, Long newSeq, Long newPid, String newThread) {
    return new Event(
        ts, kind, status, payload, newAgent, newSeq, newPid, newThread, turn, callId, session);
  }

  /** This event with the conversation fields set. */
  public Event withCall(String newTurn, String newCallId) {
    return new Event(
        ts, kind, status, payload, agent, seq, pid, thread, newTurn, newCallId, session);
  }

  /** This event with the session (the conversation it belongs to) set. */
  public Event withSession(String newSession) {
    return new Event(ts, kind, status, payload, agent, seq, pid, thread, turn, callId, newSession);
  }
}
