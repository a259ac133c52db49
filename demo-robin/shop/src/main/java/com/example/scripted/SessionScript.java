package com.example.scripted;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One conversation of the corpus as the stand-in model plays it: the user's messages, and for each the model's
 * steps (a batch of tool calls, or the final answer). A script file holds one session a line:
 * {@code {"session": "...", "setup": {...}, "turns": [{"user": "...", "steps": [{"calls": [{"tool": "...",
 * "args": {...}}]}, {"answer": "..."}]}]}}. The setup is the application's (the shop's orders, say).
 *
 * @param session the conversation's id, passed to the AI service as its {@code @MemoryId}
 * @param setup   what the application starts the session from
 * @param turns   the user's messages and the model's steps for each
 */
public record SessionScript(String session, JsonNode setup, List<Turn> turns) {
  /** One user message and the model's steps in answer. */
  public record Turn(String user, List<Step> steps) {}

  /** A batch of tool calls, or (when {@code calls} is empty) the final answer. */
  public record Step(List<Call> calls, String answer) {}

  /** One tool call: the tool's name and its arguments as a JSON object. */
  public record Call(String tool, String arguments) {}

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Reads a script file. */
  public static List<SessionScript> read(Path file) throws IOException {
    List<SessionScript> scripts = new ArrayList<>();
    for (String line : Files.readAllLines(file)) {
      if (line.isBlank()) {
        continue;
      }
      JsonNode n = JSON.readTree(line);
      List<Turn> turns = new ArrayList<>();
      for (JsonNode t : n.path("turns")) {
        List<Step> steps = new ArrayList<>();
        for (JsonNode s : t.path("steps")) {
          List<Call> calls = new ArrayList<>();
          for (JsonNode c : s.path("calls")) {
            calls.add(new Call(c.path("tool").asText(), JSON.writeValueAsString(c.path("args"))));
          }
          steps.add(new Step(List.copyOf(calls), s.path("answer").asText("")));
        }
        turns.add(new Turn(t.path("user").asText(), List.copyOf(steps)));
      }
      scripts.add(new SessionScript(n.path("session").asText(), n.path("setup"), List.copyOf(turns)));
    }
    return scripts;
  }
}
