package dev.vigil.dialogue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.vigil.observe.Event;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Tool roles (docs/DETECTORS.md#tool-roles): a tool call is a {@code write} (it changes state) or a
 * {@code read} (it looks something up) by the verb its name starts with, unless the rules file
 * names the tool's role outright. Appraisal reads a successful read as curiosity
 * (docs/DESIGN.md#appraisal); the conversation detectors look at writes.
 *
 * <p>A tool's name is {@link #toolName}; its verb is the first word of that name, in snake, kebab
 * or camel case ({@code cancel_order}, {@code cancelOrder} and {@code cancel-order} all start with
 * {@code cancel}). Only events of kind {@code tool.*} or with a {@code payload.tool} are tool
 * calls.
 *
 * @param writeVerbs verbs that make a tool a write
 * @param readVerbs verbs that make a tool a read
 * @param tools roles named per tool (by its name or its kind's last segment), over the verbs
 */
public record ToolRoles(List<String> writeVerbs, List<String> readVerbs, Map<String, Role> tools) {
  /** What a tool does to the world. */
  public enum Role {
    /** Changes state: books, cancels, pays, sends. */
    WRITE,
    /** Looks something up. */
    READ,
    /** Not a tool call, or a tool of no known role. */
    NONE
  }

  /** The default verbs (docs/DETECTORS.md#tool-roles). */
  public static final ToolRoles DEFAULTS =
      new ToolRoles(
          List.of(
              "book",
              "cancel",
              "create",
              "update",
              "modify",
              "delete",
              "remove",
              "send",
              "pay",
              "transfer",
              "set",
              "add",
              "submit",
              "refund",
              "exchange"),
          List.of(
              "get",
              "search",
              "list",
              "find",
              "lookup",
              "check",
              "calculate",
              "fetch",
              "read",
              "query",
              "show"),
          Map.of());

  /** Copies the lists. */
  public ToolRoles {
    writeVerbs = List.copyOf(writeVerbs);
    readVerbs = List.copyOf(readVerbs);
    tools = Map.copyOf(tools);
  }

  /** Whether the event is a tool call: kind {@code tool.*} or a {@code payload.tool}. */
  public static boolean isToolCall(Event e) {
    return e.kind().startsWith("tool.") || e.payload().path("tool").isTextual();
  }

  /**
   * The tool's name, the one way every reader derives it: {@code payload.tool} when it is non-blank
   * text, else the kind's last segment ({@code tool.cancel_order} gives {@code cancel_order}).
   * Meant for tool calls ({@link #isToolCall}).
   */
  public static String toolName(Event e) {
    JsonNode tool = e.payload().path("tool");
    if (tool.isTextual() && !tool.asText().isBlank()) {
      return tool.asText();
    }
    return lastSegment(e.kind());
  }

  /** The role of the event's tool; {@link Role#NONE} when it is no tool call. */
  public Role of(Event e) {
    if (!isToolCall(e)) {
      return Role.NONE;
    }
    Role named = named(e);
    return named != null ? named : byVerb(toolName(e));
  }

  /** The role of the tool with this name: named in {@link #tools}, else by its verb. */
  public Role ofTool(String name) {
    Role named = tools.get(name);
    return named != null ? named : byVerb(name);
  }

  private Role byVerb(String name) {
    int end = asciiVerbEnd(name);
    if (end > 0) { // an ASCII verb, compared in place: the verb's lower case is its first letter's
      if (startsWithVerb(name, end, writeVerbs)) {
        return Role.WRITE;
      }
      return startsWithVerb(name, end, readVerbs) ? Role.READ : Role.NONE;
    }
    String verb = verb(name);
    if (writeVerbs.contains(verb)) {
      return Role.WRITE;
    }
    return readVerbs.contains(verb) ? Role.READ : Role.NONE;
  }

  /**
   * Where the verb {@link #verb} reads ends when it and the character after it are ASCII; 0
   * otherwise.
   */
  private static int asciiVerbEnd(String name) {
    if (name == null || name.isEmpty() || name.charAt(0) >= 0x80) {
      return 0;
    }
    int end = 1;
    while (end < name.length()) {
      char c = name.charAt(end);
      if (c >= 0x80) {
        return 0;
      }
      if (!Character.isLetter(c) || Character.isUpperCase(c)) {
        break;
      }
      end++;
    }
    return end;
  }

  private static boolean startsWithVerb(String name, int end, List<String> verbs) {
    char first = Character.toLowerCase(name.charAt(0));
    for (int i = 0, n = verbs.size(); i < n; i++) {
      String v = verbs.get(i);
      if (v.length() == end && v.charAt(0) == first && name.regionMatches(1, v, 1, end - 1)) {
        return true;
      }
    }
    return false;
  }

  private Role named(Event e) {
    if (tools.isEmpty()) {
      return null;
    }
    Role byName = tools.get(toolName(e));
    return byName != null ? byName : tools.get(lastSegment(e.kind()));
  }

  /**
   * The first word of a tool's name, lower case: {@code cancelOrder} and {@code cancel_order} give
   * cancel.
   */
  public static String verb(String toolName) {
    if (toolName == null || toolName.isEmpty()) {
      return "";
    }
    int end = 1;
    while (end < toolName.length()) {
      char c = toolName.charAt(end);
      if (!Character.isLetter(c) || Character.isUpperCase(c)) {
        break;
      }
      end++;
    }
    return toolName.substring(0, end).toLowerCase(Locale.ROOT);
  }

  private static String lastSegment(String kind) {
    return kind.substring(kind.lastIndexOf('.') + 1);
  }

  /**
   * Reads the optional {@code tool_roles} object of a rules file: {@code write_verbs}, {@code
   * read_verbs} (each replaces its default list) and {@code tools} (tool name to {@code "write"},
   * {@code "read"} or {@code "none"}).
   *
   * @throws IllegalArgumentException naming the source and the field that is wrong
   */
  public static ToolRoles parse(JsonNode root, String source) {
    JsonNode r = root.get("tool_roles");
    if (r == null) {
      return DEFAULTS;
    }
    if (!r.isObject()) {
      throw new IllegalArgumentException(source + ": \"tool_roles\" must be an object");
    }
    Map<String, Role> tools = new LinkedHashMap<>();
    JsonNode t = r.get("tools");
    if (t != null) {
      if (!t.isObject()) {
        throw new IllegalArgumentException(
            source + ": tool_roles.tools must be an object of tool name to role");
      }
      for (var e : t.properties()) {
        String role = e.getValue().asText("").toUpperCase(Locale.ROOT);
        if (!List.of("WRITE", "READ", "NONE").contains(role)) {
          throw new IllegalArgumentException(
              source
                  + ": tool_roles.tools."
                  + e.getKey()
                  + " must be \"write\", \"read\" or \"none\", not "
                  + e.getValue());
        }
        tools.put(e.getKey(), Role.valueOf(role));
      }
    }
    return new ToolRoles(
        words(r, "write_verbs", DEFAULTS.writeVerbs, source),
        words(r, "read_verbs", DEFAULTS.readVerbs, source),
        tools);
  }

  private static List<String> words(
      JsonNode r, String field, List<String> fallback, String source) {
    JsonNode v = r.get(field);
    if (v == null) {
      return fallback;
    }
    if (!v.isArray()) {
      throw new IllegalArgumentException(
          source + ": tool_roles." + field + " must be an array of verbs, not " + v);
    }
    List<String> out = new ArrayList<>();
    v.forEach(w -> out.add(w.asText().toLowerCase(Locale.ROOT)));
    return out;
  }
}
