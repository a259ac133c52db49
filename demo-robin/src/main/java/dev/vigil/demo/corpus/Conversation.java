package dev.vigil.demo.corpus;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One session's script as the scripted model plays it ({@code com.example.scripted.SessionScript}):
 * the user's messages, and after each the model's steps, tool calls or the answer.
 */
final class Conversation {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ObjectNode root = JSON.createObjectNode();
  private final ArrayNode turns;
  private ArrayNode steps;

  Conversation(String session) {
    root.put("session", session);
    root.putObject("setup");
    turns = root.putArray("turns");
  }

  /** The application's setup of the session (the shop's orders, say). */
  ObjectNode setup() {
    return (ObjectNode) root.get("setup");
  }

  /** The user's next message: a new turn. */
  Conversation user(String text) {
    ObjectNode turn = turns.addObject().put("user", text);
    steps = turn.putArray("steps");
    return this;
  }

  /** The model calls one tool; {@code args} alternate names and values. */
  Conversation call(String tool, Object... args) {
    calls().add(toolCall(tool, args));
    return this;
  }

  /** The model calls several tools in one step. */
  Conversation calls(ObjectNode... calls) {
    ArrayNode batch = calls();
    for (ObjectNode c : calls) {
      batch.add(c);
    }
    return this;
  }

  /** One tool call, for {@link #calls(ObjectNode...)}. */
  static ObjectNode toolCall(String tool, Object... args) {
    ObjectNode c = JSON.createObjectNode().put("tool", tool);
    ObjectNode a = c.putObject("args");
    for (int i = 0; i < args.length; i += 2) {
      Object v = args[i + 1];
      String name = (String) args[i];
      if (v instanceof Double d) {
        a.put(name, d);
      } else if (v instanceof Boolean b) {
        a.put(name, b);
      } else {
        a.put(name, String.valueOf(v));
      }
    }
    return c;
  }

  private ArrayNode calls() {
    if (steps == null) {
      throw new IllegalStateException("a step before the first user message");
    }
    return steps.addObject().putArray("calls");
  }

  /** The model's answer: the turn ends. */
  Conversation answer(String text) {
    steps.addObject().put("answer", text);
    return this;
  }

  /** The script line. */
  ObjectNode json() {
    return root;
  }
}
