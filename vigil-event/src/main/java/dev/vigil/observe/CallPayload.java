package dev.vigil.observe;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The short form of a tool call's payload in a queue excerpt (docs/DESIGN.md, "In the queue"): the
 * payload's values without its fixed names. A form byte says which of the optional fields are there
 * ({@link #TOOL}, {@link #ARGS}, {@link #RESULT}, {@link #ERROR}); then come, as Smile values one
 * after another, {@code tool} (left out when it is the method's name), {@code args}, {@code
 * result}, {@code duration_ms} as a whole number of microseconds, {@code class}, {@code method} and
 * {@code error}. It reads back as the payload object of those names in that order, the one the
 * agent's long form has, about 60 bytes shorter. An excerpt with this payload and no {@code kind}
 * has the kind of its tool ({@link ToolKind#of}).
 */
public final class CallPayload {
  /** {@code tool}'s value follows; without it the tool is named as its method. */
  public static final int TOOL = 1;

  /** {@code args} follows. */
  public static final int ARGS = 2;

  /** {@code result} follows. */
  public static final int RESULT = 4;

  /** {@code error} follows, last. */
  public static final int ERROR = 8;

  private static final int ALL = TOOL | ARGS | RESULT | ERROR;

  /** Kinds of tool names already seen, so that a reader does not derive them again each event. */
  private static final ConcurrentHashMap<String, String> KINDS = new ConcurrentHashMap<>();

  /** Kinds kept at most, and the longest tool name kept; beyond, a kind is derived each time. */
  private static final int KINDS_KEPT = 4_096;

  private static final int KEPT_NAME_CHARS = 256;

  private CallPayload() {}

  /**
   * {@code duration_ms} of a whole number of microseconds; the writer and every reader compute it
   * alike.
   */
  public static double durationMs(long micros) {
    return micros / 1_000.0;
  }

  /**
   * The kind of a call payload read by {@link #read} whose excerpt names none: its tool's; null
   * when the tool is not a string.
   */
  static String kindOf(ObjectNode payload) {
    JsonNode tool = payload.get("tool");
    if (tool == null || !tool.isTextual()) {
      return null;
    }
    String name = tool.textValue();
    String kind = KINDS.get(name);
    if (kind == null) {
      kind = ToolKind.of(name);
      if (KINDS.size() < KINDS_KEPT && name.length() <= KEPT_NAME_CHARS) {
        KINDS.put(name, kind);
      }
    }
    return kind;
  }

  /**
   * The form byte of a payload that this form writes and reads back exactly (its names those of a
   * tool call in their order, {@code duration_ms} a double of whole microseconds), or -1.
   */
  static int formOf(ObjectNode payload) {
    int n = payload.size();
    if (n < 4 || n > 7) {
      return -1;
    }
    List<String> names = new ArrayList<>(n);
    payload.fieldNames().forEachRemaining(names::add);
    int at = 1;
    int form = 0;
    if (at < n && names.get(at).equals("args")) {
      form |= ARGS;
      at++;
    }
    if (at < n && names.get(at).equals("result")) {
      form |= RESULT;
      at++;
    }
    if (at + 3 < n && names.get(at + 3).equals("error")) {
      form |= ERROR;
    }
    List<String> expected = new ArrayList<>(List.of("tool"));
    expected.addAll(names.subList(1, at));
    expected.addAll(List.of("duration_ms", "class", "method"));
    if ((form & ERROR) != 0) {
      expected.add("error");
    }
    JsonNode duration = payload.get("duration_ms");
    if (!names.equals(expected) || !duration.isDouble() || !wholeMicros(duration.doubleValue())) {
      return -1;
    }
    JsonNode tool = payload.get("tool");
    return tool.isTextual() && tool.equals(payload.get("method")) ? form : form | TOOL;
  }

  private static boolean wholeMicros(double ms) {
    long micros = Math.round(ms * 1_000);
    return Double.doubleToRawLongBits(durationMs(micros)) == Double.doubleToRawLongBits(ms);
  }

  /**
   * A payload that {@link #formOf} gave {@code form} for, in this form, its values written by
   * {@link SmileOut} as the agent writes them (a lone surrogate, which Jackson refuses, as U+FFFD).
   */
  static byte[] bytes(ObjectNode payload, int form) {
    SmileOut out = new SmileOut();
    out.rawByte(form);
    if ((form & TOOL) != 0) {
      out.tree(payload.get("tool"));
    }
    if ((form & ARGS) != 0) {
      out.tree(payload.get("args"));
    }
    if ((form & RESULT) != 0) {
      out.tree(payload.get("result"));
    }
    out.number(Math.round(payload.get("duration_ms").doubleValue() * 1_000));
    out.tree(payload.get("class"));
    out.tree(payload.get("method"));
    if ((form & ERROR) != 0) {
      out.tree(payload.get("error"));
    }
    return out.toByteArray();
  }

  /** Whether an event of this payload's form can leave its kind out: it is the tool's. */
  static boolean isToolsKind(String kind, ObjectNode payload) {
    JsonNode tool = payload.get("tool");
    return tool.isTextual() && ToolKind.of(tool.textValue()).equals(kind);
  }

  /** Reads a payload of this form back into the payload object. */
  static ObjectNode read(byte[] payload, ObjectMapper smile) throws IOException {
    int form = form(payload);
    int micros = durationAt(form);
    JsonNode[] values = SmileScan.trees(payload, 1, valueCount(form));
    if (values == null || !values[micros].isIntegralNumber()) { // an int or a long when sure
      values = parsed(payload, form, smile);
    }
    ObjectNode o = smile.getNodeFactory().objectNode();
    o.putNull("tool"); // its place in the order; its value comes now or with the method's
    int at = 0;
    if ((form & TOOL) != 0) {
      o.set("tool", values[at++]);
    }
    if ((form & ARGS) != 0) {
      o.set("args", values[at++]);
    }
    if ((form & RESULT) != 0) {
      o.set("result", values[at++]);
    }
    o.put("duration_ms", durationMs(values[at++].longValue()));
    o.set("class", values[at++]);
    JsonNode method = values[at++];
    o.set("method", method);
    if ((form & TOOL) == 0) {
      o.set("tool", method.deepCopy());
    }
    if ((form & ERROR) != 0) {
      o.set("error", values[at]);
    }
    return o;
  }

  /** The values of a payload of this form, read by the parser; the duration as its microseconds. */
  static JsonNode[] parsed(byte[] payload, int form, ObjectMapper smile) throws IOException {
    int micros = durationAt(form);
    JsonNode[] values = new JsonNode[valueCount(form)];
    try (JsonParser p = smile.getFactory().createParser(payload, 1, payload.length - 1)) {
      for (int i = 0; i < values.length; i++) {
        values[i] = i == micros ? smile.getNodeFactory().numberNode(micros(p)) : next(p, smile);
      }
      end(p);
    }
    return values;
  }

  /**
   * Checks a payload of this form as {@link #read} would read it, every value walked token by token
   * and decoded, without building the tree; with {@code kindOfTool}, as {@link #kindOf} would find
   * its kind.
   */
  static void check(byte[] payload, ObjectMapper smile, boolean kindOfTool) throws IOException {
    int form = form(payload);
    try (JsonParser p = smile.getFactory().createParser(payload, 1, payload.length - 1)) {
      if ((form & TOOL) != 0) {
        skipTool(p, kindOfTool);
      }
      int before = Integer.bitCount(form & (ARGS | RESULT));
      for (int i = 0; i < before; i++) {
        skip(p);
      }
      micros(p);
      skip(p);
      if ((form & TOOL) != 0) {
        skip(p);
      } else {
        skipTool(p, kindOfTool);
      }
      if ((form & ERROR) != 0) {
        skip(p);
      }
      end(p);
    }
  }

  /**
   * Whether {@link #check} surely passes {@code payload} ({@link SmileScan}'s fast path); false
   * when {@link #check} must decide.
   */
  static boolean surelyValid(byte[] payload, boolean kindOfTool) {
    if (payload.length == 0 || (payload[0] & ~ALL) != 0) {
      return false;
    }
    int form = payload[0];
    int micros = durationAt(form);
    int named = !kindOfTool ? -1 : (form & TOOL) != 0 ? 0 : micros + 2;
    return SmileScan.values(payload, 1, valueCount(form), named, micros);
  }

  /**
   * Where a payload of this form has its duration among its values: after the tool, the arguments
   * and the result it holds.
   */
  static int durationAt(int form) {
    return Integer.bitCount(form & (TOOL | ARGS | RESULT));
  }

  /**
   * How many values a payload of this form holds: the duration, the class, the method, its others.
   */
  static int valueCount(int form) {
    return durationAt(form) + 3 + ((form & ERROR) != 0 ? 1 : 0);
  }

  private static int form(byte[] payload) throws IOException {
    if (payload.length == 0 || (payload[0] & ~ALL) != 0) {
      throw new IOException("a tool call's short payload starts with an unknown form byte");
    }
    return payload[0];
  }

  private static JsonNode next(JsonParser p, ObjectMapper smile) throws IOException {
    if (p.nextToken() == null) {
      throw new IOException("a tool call's short payload ends before its last value");
    }
    return PayloadTree.value(p, smile);
  }

  private static long micros(JsonParser p) throws IOException {
    if (p.nextToken() != JsonToken.VALUE_NUMBER_INT) {
      throw new IOException("a tool call's short payload has no whole duration_ms");
    }
    return p.getLongValue();
  }

  private static void skip(JsonParser p) throws IOException {
    if (p.nextToken() == null) {
      throw new IOException("a tool call's short payload ends before its last value");
    }
    EventWire.walk(p);
  }

  /** Skips the value that names the tool; when the kind is the tool's, it must be a string. */
  private static void skipTool(JsonParser p, boolean kindOfTool) throws IOException {
    skip(p);
    if (kindOfTool && p.currentToken() != JsonToken.VALUE_STRING) {
      throw new IOException(
          "the excerpt's kind is its tool's, and its tool is not named by a string");
    }
  }

  private static void end(JsonParser p) throws IOException {
    if (p.nextToken() != null) {
      throw new IOException("a tool call's short payload goes on after its last value");
    }
  }
}
