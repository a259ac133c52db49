package dev.vigil.diagnose.policy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cel.common.values.NullValue;
import dev.vigil.observe.Event;
import dev.vigil.observe.EventJson;
import dev.vigil.observe.Timestamps;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON as CEL sees it (CEL's JSON mapping): an object is a map, an array a list, an integral number
 * an {@code int} (a {@code double} past 64 bits), any other number a {@code double}, {@code null}
 * CEL's null. A {@code result} that the agent recorded as a string holding a JSON object or array
 * (a tool that returns JSON text) is read as that object or array, so {@code result.status} works
 * either way.
 */
final class CelValues {
  /** CEL's null. */
  static final Object NULL = NullValue.NULL_VALUE;

  private static final int MAX_DEPTH = 64;

  private CelValues() {}

  /** One JSON value; a missing node is null. */
  static Object of(JsonNode node) {
    return of(node, 0);
  }

  /**
   * A tool call's {@code result}: as {@link #of}, a string holding a JSON object or array read as
   * that.
   */
  static Object result(JsonNode node) {
    if (node != null && node.isTextual()) {
      String s = node.asText().strip();
      if ((s.startsWith("{") && s.endsWith("}")) || (s.startsWith("[") && s.endsWith("]"))) {
        try {
          return of(EventJson.mapper().readTree(s));
        } catch (IOException notJson) {
          return node.asText(); // text that merely looks like JSON stays text
        }
      }
    }
    return of(node);
  }

  /**
   * An event as its JSON line (docs/DESIGN.md#the-event) reads: {@code ts} (ISO-8601 text), {@code
   * kind}, {@code status}, {@code payload} (its {@code result} as {@link #result}) and the optional
   * fields that are present.
   */
  static Map<String, Object> event(Event e) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("ts", Timestamps.format(e.ts()));
    m.put("kind", e.kind());
    m.put("status", e.status());
    Map<String, Object> payload = new LinkedHashMap<>();
    for (var field : e.payload().properties()) {
      payload.put(
          field.getKey(),
          field.getKey().equals("result") ? result(field.getValue()) : of(field.getValue()));
    }
    m.put("payload", Collections.unmodifiableMap(payload));
    putPresent(m, "agent", e.agent());
    putPresent(m, "seq", e.seq());
    putPresent(m, "pid", e.pid());
    putPresent(m, "thread", e.thread());
    putPresent(m, "turn", e.turn());
    putPresent(m, "call_id", e.callId());
    putPresent(m, "session", e.session());
    return Collections.unmodifiableMap(m);
  }

  private static void putPresent(Map<String, Object> m, String key, Object value) {
    if (value != null) {
      m.put(key, value);
    }
  }

  private static Object of(JsonNode node, int depth) {
    if (node == null || node.isNull() || node.isMissingNode() || depth > MAX_DEPTH) {
      return NULL;
    }
    if (node.isObject()) {
      Map<String, Object> m = new LinkedHashMap<>();
      for (var field : node.properties()) {
        m.put(field.getKey(), of(field.getValue(), depth + 1));
      }
      return Collections.unmodifiableMap(m);
    }
    if (node.isArray()) {
      List<Object> l = new ArrayList<>(node.size());
      node.forEach(v -> l.add(of(v, depth + 1)));
      return Collections.unmodifiableList(l);
    }
    if (node.isTextual()) {
      return node.asText();
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    if (node.isIntegralNumber()) {
      return node.canConvertToLong() ? (Object) node.longValue() : (Object) node.doubleValue();
    }
    if (node.isNumber()) {
      return node.doubleValue();
    }
    return node
        .asText(); // binary and POJO nodes do not occur in parsed JSON; as text, never a failure
  }
}
