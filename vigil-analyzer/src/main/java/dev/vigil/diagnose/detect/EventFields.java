package dev.vigil.diagnose.detect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventJson;
import java.io.IOException;
import java.time.Instant;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * What the detectors read out of an event: its call time, its ids, its failure message, its derived
 * copies.
 */
final class EventFields {
  /** Statuses that report success (docs/DESIGN.md#appraisal). */
  static final Set<String> SUCCESS = Set.of("ok", "success", "completed", "resolved", "delivered");

  /** Statuses that report failure. */
  static final Set<String> FAILURE = Set.of("fail", "timeout", "error");

  private static final int MAX_DEPTH = 8;

  private EventFields() {}

  static String status(Event e) {
    return e.status().toLowerCase(Locale.ROOT);
  }

  /** {@code payload.duration_ms} when it is a non-negative number, else -1. */
  static double durationMs(Event e) {
    JsonNode d = e.payload().get("duration_ms");
    return d != null && d.isNumber() && d.doubleValue() >= 0 ? d.doubleValue() : -1;
  }

  /**
   * When a call reported its result: {@code ts + duration_ms} (just {@code ts} without a duration).
   */
  static Instant reportedAt(Event e) {
    double ms = durationMs(e);
    return ms <= 0 ? e.ts() : e.ts().plusNanos(Math.round(ms * 1_000_000));
  }

  /**
   * The id values an event carries: every scalar under a field named {@code id} or ending in {@code
   * Id} or {@code _id}, anywhere in the payload (so in {@code args} and {@code result} too),
   * including inside a result that is a JSON object written as a string.
   */
  static Set<String> ids(Event e) {
    Set<String> out = new LinkedHashSet<>();
    collectIds(e.payload(), out, 0);
    return out;
  }

  private static void collectIds(JsonNode node, Set<String> out, int depth) {
    if (depth > MAX_DEPTH) {
      return;
    }
    switch (node.getNodeType()) { // one call where isObject, isArray, isTextual took three
      case OBJECT -> {
        for (var field : node.properties()) {
          JsonNode v = field.getValue();
          if (isIdName(field.getKey()) && v.isValueNode() && !v.isNull() && !v.asText().isEmpty()) {
            out.add(v.asText());
          } else {
            collectIds(v, out, depth + 1);
          }
        }
      }
      case ARRAY -> {
        for (JsonNode v : node) {
          collectIds(v, out, depth + 1);
        }
      }
      case STRING -> {
        String s = node.textValue();
        if (looksLikeAnObject(s)) {
          try {
            collectIds(EventJson.mapper().readTree(s.strip()), out, depth + 1);
          } catch (IOException notJson) {
            // a string that merely looks like an object carries no ids
          }
        }
      }
      default -> {
        // a number, a boolean, null: no ids below
      }
    }
  }

  /** Whether a text, stripped of white space at either end, begins with { and ends with }. */
  private static boolean looksLikeAnObject(String s) {
    int from = 0;
    int to = s.length();
    while (from < to && Character.isWhitespace(s.charAt(from))) {
      from++;
    }
    while (to > from && Character.isWhitespace(s.charAt(to - 1))) {
      to--;
    }
    return to - from >= 2 && s.charAt(from) == '{' && s.charAt(to - 1) == '}';
  }

  static boolean isIdName(String name) {
    return name.equalsIgnoreCase("id") || name.endsWith("Id") || name.endsWith("_id");
  }

  /**
   * The failure's message: {@code payload.error.message} (the agent's events), else the first text
   * among {@code error}, {@code message}, {@code reason}, {@code result}; empty when there is none.
   */
  static String failureMessage(Event e) {
    ObjectNode p = e.payload();
    JsonNode m = p.path("error").path("message");
    if (m.isTextual()) {
      return m.asText();
    }
    for (String field : new String[] {"error", "message", "reason", "result"}) {
      JsonNode v = p.get(field);
      if (v != null && v.isTextual()) {
        return v.asText();
      }
    }
    return "";
  }

  /**
   * A compact copy of a window event that a detector holds while it waits to judge it: the same
   * header (time, kind, status, agent, seq, pid, thread, turn, call id, session), identity and ref,
   * and of the payload only {@code duration_ms}, so that holding it does not hold the payload's
   * tree.
   */
  static WindowEvent slim(WindowEvent w) {
    return slim(w, "duration_ms");
  }

  /**
   * A compact copy like {@link #slim(WindowEvent)} that keeps these fields of the payload (when
   * present).
   */
  static WindowEvent slim(WindowEvent w, String... kept) {
    Event e = w.event();
    ObjectNode payload = JsonNodeFactory.instance.objectNode();
    for (String field : kept) {
      JsonNode v = e.payload().get(field);
      if (v != null && (!field.equals("duration_ms") || v.isNumber())) {
        payload.set(field, v);
      }
    }
    return new WindowEvent(
        new Event(
            e.ts(),
            e.kind(),
            e.status(),
            payload,
            e.agent(),
            e.seq(),
            e.pid(),
            e.thread(),
            e.turn(),
            e.callId(),
            e.session()),
        w.identity(),
        w.ref(),
        w.naiveTs());
  }

  /**
   * A derived event about {@code source}: its agent and turn, a new kind, status, time and payload.
   */
  static Event derive(Event source, String kind, String status, Instant ts, ObjectNode payload) {
    return new Event(
        ts,
        kind,
        status,
        payload,
        source.agent(),
        null,
        source.pid(),
        null,
        source.turn(),
        null,
        source.session());
  }
}
